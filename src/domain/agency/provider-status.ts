import { isPlainObject } from '../encoding/json-values';
import { DAY_MS, isoSeconds } from '../encoding/iso-time';
import { CR26_CLASSES, type Cr26Class, type Cr26Rules } from '../fedramp/cr26-rules';
import { incidentDue } from '../fedramp/incident';
import type { NRating } from '../vulnerabilities/lifecycle';
import type { AgencyProvider } from './providers';
import type { AgencyFinding, AgencyPull, AgencyReview, PublishedPackage, PullFacts, PulledDocumentName } from './pulled-documents';
import { recomputeVulnerabilities } from './vulnerability-clock';

/** An open incident report that affects the agency, as its newest report states it. */
export interface OpenIncident {
  id: string;
  reportType: string;
  rating?: NRating;
  /** When the next (ongoing) report is due: IEC-CSO-OIR's timeframe for the class and rating, from when svc first pulled the newest report. */
  nextReportDue?: string;
}

/** One row of `svc agency status`: what the agency knows of one provider, and what it must act on. */
export interface ProviderStatus {
  provider: string;
  url: string;
  /** The class svc judges by: the configuration's, else the trust center's own statement of it; absent when neither. */
  class?: Cr26Class;
  classSource?: 'configuration' | 'trust center';
  /** `serviceIdentification.certificationType` of the CPO (or public information). */
  type?: string;
  fedrampId?: string;
  lastPull?: { seq: number; finished: string; outcome: AgencyPull['outcome']; error?: string };
  /** The newest OCR's reporting period end, and whether the agency reviewed it (CCM-AGM-ROR). */
  lastOcr?: { periodEnd: string; reviewed: boolean };
  /** Every OCR period end pulled and not reviewed, oldest first. */
  unreviewedOcrs: string[];
  /** The CPO's next OCR date (CCM-OCR-NRD). */
  nextOcrDue?: string;
  /** Open and overdue vulnerabilities by N-rating (`N3`), recomputed; accepted ones counted apart. Absent without a VDR. */
  vulnerabilities?: { open: Record<string, number>; overdue: Record<string, number>; accepted: number };
  incidents: OpenIncident[];
  /** SCNs the trust center lists, and the latest planned completion among them. */
  scns: { count: number; latestPlannedCompletion?: string };
  /** KSIs whose status changed since the SDR of the last review (or since the first pull, never reviewed). */
  ksiChanges: { id: string; from?: string; to?: string }[];
  /** The signed package the CPO publishes, as the newest pull checked it; absent when it publishes none. */
  package?: PublishedPackage;
  /** Documents invalid under every schema generation svc carries, and documents the newest pull could not refresh. */
  documents: { invalid: PulledDocumentName[]; stale: PulledDocumentName[] };
  /** What the agency must act on, one line each (status exits 1 when any row has one). */
  actions: string[];
  /**
   * What the newest pull's verification noted without asking anything of the agency (a Class A use nearing 12 months,
   * a document valid only under an older schema generation, the provider's own overdue disagreeing), one line each.
   */
  notes: string[];
  /** The newest pull's verification findings. */
  findings: AgencyFinding[];
}

/** What providerStatus reads: the provider, its newest pull, its current documents parsed, its reviews. */
export interface ProviderStatusInput {
  provider: AgencyProvider;
  agencyName?: string;
  latest?: AgencyPull;
  /** The newest pull that was not a failure, for how long the provider has been unreachable. */
  lastReached?: AgencyPull;
  documents: Partial<Record<PulledDocumentName, unknown>>;
  /** When svc first fetched the current incidents document's bytes. */
  incidentsFetchedAt?: string;
  /** Every OCR period end pulled, oldest first. */
  ocrPeriods: string[];
  /** The reviews whose signatures verify (only those count as done). */
  reviews: readonly AgencyReview[];
  /** The reviews recorded whose signatures do not verify, and why: each an action, none counted. */
  unverifiedReviews?: readonly { ocrPeriodEnd: string; problem: string }[];
  /** The KSI statuses of the SDR current at the last review (or the first pull), by KSI id. */
  ksiBaseline: ReadonlyMap<string, string | undefined>;
  rules: Pick<Cr26Rules, 'rules' | 'info'>;
  now: Date;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

/** The class to judge by: the configuration's, else a trust center's `trustCenter.certificationClass` (svc-api says it). */
export function classOf(provider: AgencyProvider, publicInformation: unknown): Pick<ProviderStatus, 'class' | 'classSource'> {
  if (provider.class !== undefined) return { class: provider.class, classSource: 'configuration' };
  const stated = obj(obj(publicInformation).trustCenter).certificationClass;
  return CR26_CLASSES.includes(stated as Cr26Class) ? { class: stated as Cr26Class, classSource: 'trust center' } : {};
}

/** The KSI statuses of an SDR, by id. */
export function ksiStatuses(sdr: unknown): Map<string, string | undefined> {
  const list = obj(sdr).keySecurityIndicators;
  return new Map(
    (Array.isArray(list) ? list : []).flatMap((k) =>
      isPlainObject(k) && typeof k.ksiId === 'string' ? [[k.ksiId, str(k.ksiImplementationStatus)] as const] : [],
    ),
  );
}

/** The KSI statuses a pull keeps (PullFacts.ksiStatuses), as ksiStatuses gives them. */
export function keptKsiStatuses(kept: Record<string, string | null>): Map<string, string | undefined> {
  return new Map(Object.entries(kept).map(([id, status]) => [id, status ?? undefined]));
}

/** The facts a pull keeps of its current SDR and OCR (the statuses in the SDR's order; null for none). */
export function pullFacts(sdr: unknown, ocr: unknown): PullFacts {
  const period = ocrPeriodEnd(ocr);
  return {
    ...(period === undefined ? {} : { ocrPeriodEnd: period }),
    ...(sdr === undefined ? {} : { ksiStatuses: Object.fromEntries([...ksiStatuses(sdr)].map(([id, status]) => [id, status ?? null])) }),
  };
}

/** An OCR's reporting period (`reportPeriod`) as written, its start when given; undefined without an end. */
export function ocrPeriod(ocr: unknown): { from?: string; to: string } | undefined {
  const period = obj(obj(ocr).reportPeriod);
  const to = str(period.to);
  const from = str(period.from);
  return to === undefined ? undefined : { ...(from === undefined ? {} : { from }), to };
}

/** An OCR's reporting period end (`reportPeriod.to`). */
export function ocrPeriodEnd(ocr: unknown): string | undefined {
  return ocrPeriod(ocr)?.to;
}

/** One provider's status row (DESIGN §14): computed, never taken from the provider where svc can recompute it. */
export function providerStatus(input: ProviderStatusInput): ProviderStatus {
  const { provider, latest, documents: d, now } = input;
  const identification = obj(obj(d.cpo ?? d.public).serviceIdentification);
  const cls = classOf(provider, d.public);
  const actions: string[] = [];
  const findings = latest?.findings ?? [];

  if (latest === undefined) actions.push(`never pulled: run svc agency pull ${provider.name}`);
  else if (latest.outcome === 'failed') {
    // Unreachable since the last pull that reached it (counted to now), or since the first pull when none did.
    const since = Date.parse((input.lastReached ?? latest).finished);
    const days = Math.floor((now.getTime() - since) / DAY_MS);
    const what = input.lastReached === undefined ? 'never reached' : `unreachable${days >= 1 ? ` for ${days} day${days === 1 ? '' : 's'}` : ''}`;
    actions.push(`pull ${latest.seq} failed: ${what} (${latest.error ?? latest.documents.find((x) => x.error !== undefined)?.error ?? 'no document came'})`);
  } else if (latest.outcome === 'partial') {
    const failed = latest.documents.filter((x) => x.outcome === 'failed');
    actions.push(
      `pull ${latest.seq} partial: ${failed.length} document${failed.length === 1 ? '' : 's'} failed (${failed.map((x) => `${x.name}: ${x.error ?? 'failed'}`).join('; ')})`,
    );
  }
  for (const f of findings) if (f.level === 'action') actions.push(`${f.rule}: ${f.message}`);

  for (const r of input.unverifiedReviews ?? [])
    actions.push(
      `CCM-AGM-ROR: the review recorded for the OCR ending ${r.ocrPeriodEnd} does not verify (${r.problem}); it is not counted: review it again (svc agency review ${provider.name} --ocr ${r.ocrPeriodEnd})`,
    );
  const reviewed = new Set(input.reviews.map((r) => r.ocrPeriodEnd));
  const unreviewedOcrs = input.ocrPeriods.filter((p) => !reviewed.has(p));
  for (const p of unreviewedOcrs)
    actions.push(`CCM-AGM-ROR: the OCR for the period ending ${p} is not reviewed yet (svc agency review ${provider.name} --ocr ${p})`);
  const lastPeriod = ocrPeriodEnd(d.ocr);

  let vulnerabilities: ProviderStatus['vulnerabilities'];
  if (d.vdr !== undefined && cls.class !== undefined) {
    const open: Record<string, number> = {};
    const overdue: Record<string, number> = {};
    const listed = recomputeVulnerabilities(d.vdr, cls.class, input.rules, now).filter((v) => !v.remediated && v.disposition !== 'False Positive');
    for (const v of listed) {
      const key = v.rating === undefined ? 'unrated' : `N${v.rating}`;
      open[key] = (open[key] ?? 0) + 1;
      if (v.overdue) overdue[key] = (overdue[key] ?? 0) + 1;
    }
    const accepted = d.avi === undefined ? 0 : recomputeVulnerabilities(d.avi, cls.class, input.rules, now).filter((v) => v.accepted).length;
    vulnerabilities = { open: sorted(open), overdue: sorted(overdue), accepted };
    const late = Object.entries(vulnerabilities.overdue).map(([n, k]) => `${k} ${n}`);
    if (late.length > 0)
      actions.push(
        `VER-AGM-RVR: ${late.join(', ')} vulnerabilit${late.length === 1 && late[0]!.startsWith('1 ') ? 'y' : 'ies'} overdue, recomputed from the VDR`,
      );
  }

  const incidents = openIncidents(d.incidents, input, cls.class);
  for (const i of incidents)
    actions.push(
      `incident ${i.id} open (${i.reportType} report${i.rating === undefined ? '' : `, N${i.rating}`})${i.nextReportDue === undefined ? '' : `; next report due ${i.nextReportDue}`}`,
    );

  const scnList = Array.isArray(d.scn) ? d.scn : [];
  const completions = scnList.flatMap((s) => str(obj(obj(s).planAndTimeline).plannedCompletion) ?? []).sort();

  const kept = latest?.facts?.ksiStatuses;
  const current = kept === undefined ? ksiStatuses(d.sdr) : keptKsiStatuses(kept);
  const ksiChanges = [...current].flatMap(([id, to]) =>
    input.ksiBaseline.size > 0 && input.ksiBaseline.get(id) !== to
      ? [{ id, ...(input.ksiBaseline.get(id) === undefined ? {} : { from: input.ksiBaseline.get(id) }), ...(to === undefined ? {} : { to }) }]
      : [],
  );

  const invalid = (latest?.schemas ?? []).filter((s) => s.generation === undefined).map((s) => s.document);
  const stale = (latest?.documents ?? []).filter((x) => x.outcome === 'failed' && x.stored !== undefined).map((x) => x.name);

  return {
    provider: provider.name,
    url: provider.url,
    ...cls,
    ...(str(identification.certificationType) === undefined ? {} : { type: str(identification.certificationType) }),
    ...((provider.fedrampId ?? str(identification.fedRampPackageId)) === undefined
      ? {}
      : { fedrampId: provider.fedrampId ?? str(identification.fedRampPackageId) }),
    ...(latest === undefined
      ? {}
      : { lastPull: { seq: latest.seq, finished: latest.finished, outcome: latest.outcome, ...(latest.error === undefined ? {} : { error: latest.error }) } }),
    ...(lastPeriod === undefined ? {} : { lastOcr: { periodEnd: lastPeriod, reviewed: reviewed.has(lastPeriod) } }),
    unreviewedOcrs,
    ...(str(obj(obj(d.cpo ?? d.public).serviceProperties).nextOngoingCertificationReportDate) === undefined
      ? {}
      : { nextOcrDue: str(obj(obj(d.cpo ?? d.public).serviceProperties).nextOngoingCertificationReportDate) }),
    ...(vulnerabilities === undefined ? {} : { vulnerabilities }),
    incidents,
    scns: { count: scnList.length, ...(completions.length === 0 ? {} : { latestPlannedCompletion: completions.at(-1) }) },
    ksiChanges,
    ...(latest?.package === undefined ? {} : { package: latest.package }),
    documents: { invalid, stale },
    actions,
    notes: findings.filter((f) => f.level === 'notice').map((f) => `${f.rule}: ${f.message}`),
    findings,
  };
}

/** What the agency side's events compare between two pulls: the open incidents affecting the agency, the overdue vulnerabilities and the OCRs. */
export interface EventFacts {
  incidents: OpenIncident[];
  /** Recomputed overdue vulnerabilities (ids), with their rating. */
  overdue: { id: string; rating?: NRating }[];
  ocrPeriod?: string;
}

/** The facts of `documents` at `now` (an unknown class: no vulnerability is judged). */
export function eventFacts(input: Pick<ProviderStatusInput, 'provider' | 'agencyName' | 'documents' | 'incidentsFetchedAt' | 'rules' | 'now'>): EventFacts {
  const cls = classOf(input.provider, input.documents.public).class;
  const overdue =
    cls === undefined || input.documents.vdr === undefined
      ? []
      : recomputeVulnerabilities(input.documents.vdr, cls, input.rules, input.now).flatMap((v) =>
          v.overdue ? [{ id: v.id, ...(v.rating === undefined ? {} : { rating: v.rating }) }] : [],
        );
  const ocrPeriod = ocrPeriodEnd(input.documents.ocr);
  return {
    incidents: openIncidents(input.documents.incidents, { ...input, ocrPeriods: [], reviews: [], ksiBaseline: new Map() }, cls),
    overdue,
    ...(ocrPeriod === undefined ? {} : { ocrPeriod }),
  };
}

/** Counts by rating, the highest N first and `unrated` last. */
function sorted(counts: Record<string, number>): Record<string, number> {
  const rank = (key: string) => (key.startsWith('N') ? Number(key.slice(1)) : -1);
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => rank(b) - rank(a)));
}

/**
 * The incidents whose newest report is not final and not resolved, among those the trust center serves the agency
 * (and, with the agency's name configured, that list it as affected): one per providerTrackingId.
 */
function openIncidents(list: unknown, input: ProviderStatusInput, cls: Cr26Class | undefined): OpenIncident[] {
  const newest = new Map<string, Record<string, unknown>>();
  for (const report of Array.isArray(list) ? list : []) {
    if (!isPlainObject(report)) continue;
    const id = str(report.providerTrackingId);
    if (id !== undefined) newest.set(id, report);
  }
  const out: OpenIncident[] = [];
  for (const [id, report] of newest) {
    if (report.reportType === 'Final' || str(report.resolvedAt) !== undefined) continue;
    const affected = Array.isArray(report.affectedAgencies) ? report.affectedAgencies : [];
    if (input.agencyName !== undefined && affected.length > 0 && !affected.includes(input.agencyName)) continue;
    const impact = report.potentialImpact;
    // FedRAMP's older incident schema writes the rating in words (svc: `Potential Agency Impact N-rating (PAIN): N4. …`).
    const rating = ratingOf(isPlainObject(impact) ? impact.currentRating : typeof impact === 'string' ? /\bN([0-5])\b/.exec(impact)?.[1] : undefined);
    let nextReportDue: string | undefined;
    if (cls !== undefined && rating !== undefined && input.incidentsFetchedAt !== undefined) {
      try {
        nextReportDue = incidentDue(input.rules, 'ongoing', cls, rating, isoSeconds(new Date(input.incidentsFetchedAt))).at;
      } catch {
        // The rules data gives no ongoing-report timeframe for this class and rating: no due time to show.
      }
    }
    out.push({
      id,
      reportType: str(report.reportType) ?? 'unknown',
      ...(rating === undefined ? {} : { rating }),
      ...(nextReportDue === undefined ? {} : { nextReportDue }),
    });
  }
  return out;
}

function ratingOf(value: unknown): NRating | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 5 ? (n as NRating) : undefined;
}
