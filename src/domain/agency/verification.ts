import type { Cr26Class, Cr26Rules } from '../fedramp/cr26-rules';
import { addCadence } from '../fedramp/evidence-cadence';
import { holdsRule } from '../fedramp/relied-rules';
import { endOfDay, isoSeconds, DAY_MS } from '../encoding/iso-time';
import { isIsoTime, isPlainObject } from '../encoding/json-values';
import type { AgencyProvider } from './providers';
import type { AgencyFinding, Delivery, PulledDocumentName } from './pulled-documents';
import { recomputeVulnerabilities, type RecomputedVulnerability } from './vulnerability-clock';

/**
 * The rules the agency's verification of a pull judges by (DESIGN §14, "Verification, recorded per document"). Each is
 * judged only where the release in use holds it (issue 34: nothing is judged by a rule the release lacks).
 */
export const VERIFICATION_RULES = {
  fedrampId: 'CDS-CSO-FID',
  nextReport: 'CCM-OCR-NRD',
  reportCadence: 'CCM-OCR-AVL',
  snapshots: 'CDS-CSO-HAD',
  json: 'FRC-CSO-JSN',
  classA: 'AGU-USE-CLA',
} as const;

/**
 * How long a Class A certification may be used (AGU-USE-CLA: "for more than 12 months"), when the release in use gives
 * the rule's statement (an official file) it is read from there; the bundled data carries no statements.
 */
export const CLASS_A_MONTHS = 12;
/** How long before the end of AGU-USE-CLA's months a Class A use is reported as nearing it (a notice). */
export const CLASS_A_NOTICE_DAYS = 30;
/** The most vulnerability ids a finding names before `and N more`. */
export const LISTED_IDS = 10;

/** What verification reads: the parsed documents of one provider's pull, how they were delivered, and the rules. */
export interface VerificationInput {
  provider: Pick<AgencyProvider, 'name' | 'fedrampId'>;
  /** The provider's Certification Class, when the agency knows it; without it the vulnerability clocks and AGU-USE-CLA are not judged. */
  cls?: Cr26Class;
  /** The parsed JSON of each document, by name; undefined when not fetched (absent, denied, failed, or never served). */
  documents: Partial<Record<PulledDocumentName, unknown>>;
  /** How each fetched document was delivered. */
  deliveries: Partial<Record<PulledDocumentName, Delivery>>;
  rules: Pick<Cr26Rules, 'rules' | 'info' | 'statements'>;
  now: Date;
}

/**
 * The findings of the pure checks of one pull (schema validity is VerifyPull's): the FedRAMP ID consistent across the
 * documents and equal to the configured one (CDS-CSO-FID); the OCR on schedule by the CPO's next report date
 * (CCM-OCR-NRD) and by the report cadence (CCM-OCR-AVL); a snapshot for the latest OCR (CDS-CSO-HAD); every JSON
 * document delivered as JSON with nosniff, the public one with CORS (FRC-CSO-JSN); overdue vulnerabilities recomputed
 * from the VDR for the provider's class, and a notice where the provider's own overdueStatus disagrees; a Class A
 * certification nearing or past AGU-USE-CLA's 12 months. Sorted: actions first, then by rule, code, document, path
 * and message.
 */
export function verifyDocuments(input: VerificationInput): AgencyFinding[] {
  return sortFindings([...contentFindings(input), ...timedFindings(input)]);
}

/**
 * The documents the checks that depend on the time read (timedFindings): the rest are read only by the checks of the
 * bytes and their delivery (contentFindings), which the same bytes always answer alike.
 */
export const TIMED_DOCUMENTS: readonly PulledDocumentName[] = ['cpo', 'ocr', 'snapshots', 'vdr'];

/** The checks of the bytes and how they were delivered: the FedRAMP ID (CDS-CSO-FID) and the delivery (FRC-CSO-JSN). */
export function contentFindings(input: VerificationInput): AgencyFinding[] {
  const holds = (id: string) => holdsRule(input.rules, id);
  return [...(holds(VERIFICATION_RULES.fedrampId) ? fedrampIdFindings(input) : []), ...(holds(VERIFICATION_RULES.json) ? deliveryFindings(input) : [])];
}

/** Whether contentFindings made the finding: the same bytes and delivery make it again. */
export function isContentFinding(f: AgencyFinding): boolean {
  return f.rule === VERIFICATION_RULES.fedrampId || (f.rule === VERIFICATION_RULES.json && DELIVERY_CODES.includes(f.code));
}

const DELIVERY_CODES = ['json-content-type', 'nosniff-missing', 'cors-missing'];

/** The checks that depend on the time: the OCR schedule, the snapshots, overdue vulnerabilities, Class A's months. They read TIMED_DOCUMENTS only. */
export function timedFindings(input: VerificationInput): AgencyFinding[] {
  const holds = (id: string) => holdsRule(input.rules, id);
  return [
    ...(holds(VERIFICATION_RULES.nextReport) || holds(VERIFICATION_RULES.reportCadence) ? reportScheduleFindings(input) : []),
    ...(holds(VERIFICATION_RULES.snapshots) ? snapshotFindings(input) : []),
    ...vulnerabilityFindings(input),
    ...(holds(VERIFICATION_RULES.classA) ? classAFindings(input) : []),
  ];
}

/** Findings in a stable order: actions first, then by rule, code, document, path and message. */
export function sortFindings(findings: readonly AgencyFinding[]): AgencyFinding[] {
  const key = (f: AgencyFinding) => [f.level === 'action' ? '0' : '1', f.rule, f.code, f.document ?? '', f.at ?? '', f.message];
  return [...findings].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
}

/** Where a document may carry the FedRAMP ID, by FedRAMP's field name (`fedRampPackageId`): the CPO's place, the top level, the metadata. */
const ID_PLACES = [['serviceIdentification', 'fedRampPackageId'], ['fedRampPackageId'], ['metadata', 'fedRampPackageId']] as const;

function fedrampIdFindings(input: VerificationInput): AgencyFinding[] {
  const rule = VERIFICATION_RULES.fedrampId;
  const findings: AgencyFinding[] = [];
  const seen: { document: PulledDocumentName; at: string; id: unknown }[] = [];
  for (const [name, doc] of Object.entries(input.documents) as [PulledDocumentName, unknown][]) {
    const items = Array.isArray(doc) ? doc.map((d, i) => ({ d, prefix: `[${i}].` })) : [{ d: doc, prefix: '' }];
    for (const { d, prefix } of items) {
      for (const place of ID_PLACES) {
        const value = valueAt(d, place);
        if (value !== undefined) seen.push({ document: name, at: `${prefix}${place.join('.')}`, id: value });
      }
    }
  }
  const cpo = input.documents.cpo;
  if (cpo !== undefined && typeof valueAt(cpo, ID_PLACES[0]) !== 'string')
    findings.push({
      level: 'action',
      rule,
      code: 'fedramp-id-missing',
      document: 'cpo',
      at: 'serviceIdentification.fedRampPackageId',
      message: "the CPO gives no FedRAMP ID; every document of FedRAMP certification data must carry the offering's",
    });
  const configured = input.provider.fedrampId;
  const cpoId = valueAt(cpo, ID_PLACES[0]);
  const expected = configured ?? (typeof cpoId === 'string' ? cpoId : undefined);
  const source = configured !== undefined ? `the FedRAMP ID configured for ${input.provider.name} (agency.providers[].fedramp_id)` : "the CPO's";
  for (const s of seen) {
    if (typeof s.id !== 'string') {
      findings.push({
        level: 'action',
        rule,
        code: 'fedramp-id-mismatch',
        document: s.document,
        at: s.at,
        message: `the FedRAMP ID is ${JSON.stringify(s.id)}, not a string`,
      });
    } else if (expected !== undefined && s.id !== expected) {
      findings.push({
        level: 'action',
        rule,
        code: 'fedramp-id-mismatch',
        document: s.document,
        at: s.at,
        message: `the FedRAMP ID is "${s.id}", not ${source} "${expected}"`,
      });
    }
  }
  if (configured === undefined && typeof cpoId === 'string')
    findings.push({
      level: 'notice',
      rule,
      code: 'fedramp-id-not-configured',
      document: 'cpo',
      at: 'serviceIdentification.fedRampPackageId',
      message: `no FedRAMP ID is configured for ${input.provider.name}; the CPO gives "${cpoId}" (set agency.providers[].fedramp_id to check every pull against it)`,
    });
  return findings;
}

/** The latest OCR's period (`reportPeriod.from` / `to`, dates), when the OCR gives one. */
function ocrPeriod(ocr: unknown): { from: string; to: string } | undefined {
  const period = valueAt(ocr, ['reportPeriod']);
  if (!isPlainObject(period) || !isDate(period.from) || !isDate(period.to)) return undefined;
  return { from: period.from.slice(0, 10), to: period.to.slice(0, 10) };
}

function reportScheduleFindings(input: VerificationInput): AgencyFinding[] {
  const findings: AgencyFinding[] = [];
  const { cpo, ocr } = input.documents;
  const t = input.now.getTime();
  const period = ocrPeriod(ocr);
  const latest =
    period === undefined
      ? ocr === undefined
        ? 'no OCR was fetched'
        : 'the OCR gives no report period'
      : `the latest OCR covers ${period.from} to ${period.to}`;
  let overdue = false;
  if (cpo !== undefined && holdsRule(input.rules, VERIFICATION_RULES.nextReport)) {
    const rule = VERIFICATION_RULES.nextReport;
    const at = 'serviceProperties.nextOngoingCertificationReportDate';
    const next = valueAt(cpo, ['serviceProperties', 'nextOngoingCertificationReportDate']);
    if (!isDate(next)) {
      findings.push({
        level: 'action',
        rule,
        code: 'next-ocr-date-missing',
        document: 'cpo',
        at,
        message: `the CPO gives no date for the next Ongoing Certification Report${next === undefined ? '' : ` (${JSON.stringify(next)} is not a date)`}`,
      });
    } else if (t > Date.parse(endOfDay(next.slice(0, 10)))) {
      const day = next.slice(0, 10);
      if (period !== undefined && period.to >= day) {
        findings.push({
          level: 'action',
          rule,
          code: 'next-ocr-date-stale',
          document: 'cpo',
          at,
          message: `the CPO still gives ${day} as the next OCR date, which has passed; ${latest}, so the CPO was not updated`,
        });
      } else {
        overdue = true;
        findings.push({
          level: 'action',
          rule,
          code: 'ocr-overdue',
          document: 'ocr',
          message: `the OCR due ${day} (the CPO's next report date) is overdue: ${latest}`,
        });
      }
    }
  }
  const cadence = reportCadence(input.rules);
  if (period !== undefined && cadence !== undefined) {
    const due = isoSeconds(new Date(addCadence(Date.parse(`${period.to}T00:00:00Z`), cadence))).slice(0, 10);
    if (!overdue && t > Date.parse(endOfDay(due)))
      findings.push({
        level: 'action',
        rule: VERIFICATION_RULES.reportCadence,
        code: 'ocr-stale',
        document: 'ocr',
        at: 'reportPeriod.to',
        message: `${latest}: the next was due by ${due}, ${cadence.num} ${cadence.unit} after it`,
      });
    const next = valueAt(cpo, ['serviceProperties', 'nextOngoingCertificationReportDate']);
    if (isDate(next) && next.slice(0, 10) > due && holdsRule(input.rules, VERIFICATION_RULES.nextReport))
      findings.push({
        level: 'notice',
        rule: VERIFICATION_RULES.nextReport,
        code: 'next-ocr-date-beyond-cadence',
        document: 'cpo',
        at: 'serviceProperties.nextOngoingCertificationReportDate',
        message: `the CPO gives ${next.slice(0, 10)} as the next OCR date, later than ${due} (${cadence.num} ${cadence.unit} after the latest OCR's period, ${VERIFICATION_RULES.reportCadence})`,
      });
  }
  return findings;
}

/** CCM-OCR-AVL's timeframe (3 months), when the release holds it with one. */
function reportCadence(rules: Pick<Cr26Rules, 'rules'>): { unit: 'hours' | 'days' | 'bizdays' | 'weeks' | 'months' | 'years'; num: number } | undefined {
  const timeframe = rules.rules.find((r) => r.id === VERIFICATION_RULES.reportCadence)?.timeframe;
  const num = timeframe?.num ?? timeframe?.max;
  return timeframe === undefined || num === undefined ? undefined : { unit: timeframe.unit, num };
}

function snapshotFindings(input: VerificationInput): AgencyFinding[] {
  const rule = VERIFICATION_RULES.snapshots;
  const period = ocrPeriod(input.documents.ocr);
  if (period === undefined) return [];
  const list = input.documents.snapshots;
  // FedRAMP names no route or shape for the historical data (svc-api's /fedramp/snapshots is svc's own): a trust
  // center that serves no list is not wrong, only not checkable, so it is a notice asking the provider how.
  if (list === undefined)
    return [
      {
        level: 'notice',
        rule,
        code: 'snapshots-missing',
        document: 'snapshots',
        message: `the trust center lists no snapshots of its certification data at /fedramp/snapshots, so svc cannot check that the data of the OCR of ${period.from} to ${period.to} stays available; ask the provider how it makes historical certification data available`,
      },
    ];
  const entries = valueAt(list, ['snapshots']);
  if (!Array.isArray(entries))
    return [
      {
        level: 'action',
        rule,
        code: 'snapshots-unreadable',
        document: 'snapshots',
        at: 'snapshots',
        message: 'the list of snapshots holds no `snapshots` array',
      },
    ];
  const aligned = entries.some((e) => isPlainObject(e) && (e.snapshot === period.to || (isPlainObject(e.period) && e.period.to === period.to)));
  return aligned
    ? []
    : [
        {
          level: 'action',
          rule,
          code: 'snapshot-missing',
          document: 'snapshots',
          at: 'snapshots',
          message: `no snapshot is listed for the latest OCR (${period.from} to ${period.to}); ${entries.length} ${entries.length === 1 ? 'is' : 'are'} listed`,
        },
      ];
}

/** A media type that is JSON: `application/json` or `<type>/<subtype>+json`, parameters aside. */
function isJsonType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type !== undefined && (type === 'application/json' || /^[a-z]+\/[a-z0-9.+-]+\+json$/.test(type));
}

function deliveryFindings(input: VerificationInput): AgencyFinding[] {
  const rule = VERIFICATION_RULES.json;
  const findings: AgencyFinding[] = [];
  for (const [document, d] of Object.entries(input.deliveries) as [PulledDocumentName, Delivery | undefined][]) {
    if (d === undefined) continue;
    if (!isJsonType(d.contentType))
      findings.push({
        level: 'action',
        rule,
        code: 'json-content-type',
        document,
        at: 'Content-Type',
        message: `served as ${d.contentType === undefined ? 'no Content-Type' : `"${d.contentType}"`}, not application/json`,
      });
    if (!d.nosniff)
      findings.push({
        level: 'action',
        rule,
        code: 'nosniff-missing',
        document,
        at: 'X-Content-Type-Options',
        message: 'served without X-Content-Type-Options: nosniff',
      });
    if (document === 'public' && (d.cors === undefined || d.cors.trim() === '' || d.cors.trim() === 'null'))
      findings.push({
        level: 'action',
        rule,
        code: 'cors-missing',
        document,
        at: 'Access-Control-Allow-Origin',
        message: `the public JSON answered a request carrying an Origin ${d.cors === undefined ? 'without Access-Control-Allow-Origin' : `with Access-Control-Allow-Origin "${d.cors}"`}, so a web application on another domain cannot read it`,
      });
  }
  return findings;
}

function vulnerabilityFindings(input: VerificationInput): AgencyFinding[] {
  const vdr = input.documents.vdr;
  if (vdr === undefined) return [];
  if (input.cls === undefined)
    return [
      {
        level: 'notice',
        rule: 'svc:class',
        code: 'class-unknown',
        document: 'vdr',
        message: `the Certification Class of ${input.provider.name} is not known, so its vulnerabilities' timeframes are not recomputed`,
      },
    ];
  const cls = input.cls;
  const all = recomputeVulnerabilities(vdr, cls, input.rules, input.now);
  const findings: AgencyFinding[] = [];
  const overdue = new Map<string, RecomputedVulnerability[]>();
  for (const v of all.filter((x) => x.overdue)) {
    const rule = v.due?.rule ?? 'VER-TFR-EVU';
    overdue.set(rule, [...(overdue.get(rule) ?? []), v]);
  }
  for (const [rule, list] of overdue)
    findings.push({
      level: 'action',
      rule,
      code: 'vulnerabilities-overdue',
      document: 'vdr',
      message: `${count(list.length, 'vulnerability is', 'vulnerabilities are')} overdue by ${rule} for Class ${cls}, recomputed from the VDR's dates and N-ratings: ${listed(list, (v) => `${v.id} (${v.rating === undefined ? 'not rated' : `N${v.rating}`}, due ${v.due?.at ?? 'unknown'})`)}`,
    });
  const says = all.filter((v) => v.disagrees && v.providerSaysOverdue === false);
  const denies = all.filter((v) => v.disagrees && v.providerSaysOverdue === true);
  if (says.length > 0)
    findings.push({
      level: 'notice',
      rule: says[0]!.due?.rule ?? 'VER-TFR-EVU',
      code: 'overdue-status-disagrees',
      document: 'vdr',
      message: `the VDR says ${count(says.length, 'vulnerability is', 'vulnerabilities are')} not overdue that svc recomputes as overdue: ${listed(says, (v) => v.id)}`,
    });
  if (denies.length > 0)
    findings.push({
      level: 'notice',
      rule: denies[0]!.due?.rule ?? 'VER-TFR-EVU',
      code: 'overdue-status-disagrees',
      document: 'vdr',
      message: `the VDR says ${count(denies.length, 'vulnerability is', 'vulnerabilities are')} overdue that svc recomputes as not overdue: ${listed(denies, (v) => v.id)}`,
    });
  const unreadable = all.filter((v) => v.unreadable.length > 0);
  if (unreadable.length > 0)
    findings.push({
      level: 'notice',
      rule: 'svc:vulnerability-clock',
      code: 'vulnerabilities-unreadable',
      document: 'vdr',
      message: `${count(unreadable.length, 'vulnerability has', 'vulnerabilities have')} fields the clock cannot read: ${listed(unreadable, (v) => `${v.id} (${v.unreadable.join('; ')})`)}`,
    });
  return findings;
}

function classAFindings(input: VerificationInput): AgencyFinding[] {
  if (input.cls !== 'A' || input.documents.cpo === undefined) return [];
  const rule = VERIFICATION_RULES.classA;
  const services = valueAt(input.documents.cpo, ['certifiedServices']);
  const dates = (Array.isArray(services) ? services : [])
    .map((s) => (isPlainObject(s) && isDate(s.dateAvailable) ? s.dateAvailable.slice(0, 10) : undefined))
    .filter((d): d is string => d !== undefined)
    .sort();
  if (dates.length === 0)
    return [
      {
        level: 'notice',
        rule,
        code: 'class-a-start-unknown',
        document: 'cpo',
        at: 'certifiedServices[].dateAvailable',
        message: `${input.provider.name} is Class A, but the CPO dates no certified service, so its ${classAMonths(input.rules)} months cannot be counted`,
      },
    ];
  const months = classAMonths(input.rules);
  const since = dates[0]!;
  const until = isoSeconds(new Date(addCadence(Date.parse(`${since}T00:00:00Z`), { unit: 'months', num: months }))).slice(0, 10);
  const t = input.now.getTime();
  const unless = 'unless the offering is actively seeking a Class B, C or D certification';
  if (t > Date.parse(endOfDay(until)))
    return [
      {
        level: 'action',
        rule,
        code: 'class-a-over-12-months',
        document: 'cpo',
        at: 'certifiedServices[].dateAvailable',
        message: `a Class A certification used since ${since} passed ${months} months on ${until}; do not authorize its use further ${unless}`,
      },
    ];
  if (t > Date.parse(`${until}T00:00:00Z`) - CLASS_A_NOTICE_DAYS * DAY_MS)
    return [
      {
        level: 'notice',
        rule,
        code: 'class-a-nearing-12-months',
        document: 'cpo',
        at: 'certifiedServices[].dateAvailable',
        message: `a Class A certification used since ${since} reaches ${months} months on ${until}; plan not to authorize its use beyond it ${unless}`,
      },
    ];
  return [];
}

/** AGU-USE-CLA's months: from its statement when the release gives statements (`for more than 12 months`), else CLASS_A_MONTHS. */
export function classAMonths(rules: Pick<Cr26Rules, 'statements'>): number {
  const text = rules.statements?.[VERIFICATION_RULES.classA]?.text;
  const m = text === undefined ? null : /more than (\d+) months/.exec(text);
  return m === null ? CLASS_A_MONTHS : Number(m[1]);
}

function valueAt(doc: unknown, path: readonly string[]): unknown {
  let v = doc;
  for (const key of path) {
    if (!isPlainObject(v)) return undefined;
    v = v[key];
  }
  return v;
}

function isDate(value: unknown): value is string {
  return typeof value === 'string' && isIsoTime(value) && !Number.isNaN(Date.parse(value));
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listed<T>(items: readonly T[], words: (item: T) => string): string {
  const shown = items.slice(0, LISTED_IDS).map(words).join(', ');
  return items.length > LISTED_IDS ? `${shown} and ${items.length - LISTED_IDS} more` : shown;
}
