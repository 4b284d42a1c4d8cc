import { canonicalText } from '../conmon/run-id';
import { markdownText } from '../encoding/markdown';
import { isPlainObject } from '../encoding/json-values';
import type { PulledDocumentName } from './pulled-documents';
import type { RecomputedVulnerability } from './vulnerability-clock';

/** The `json` form of `svc agency diff`. */
export const AGENCY_DIFF_SCHEMA = 'svc.agency-diff/v1';

/**
 * One end of a comparison: a provider's documents as one pull left them (ProviderDocuments up to that pull), parsed,
 * with the VDR's and the AVI's vulnerabilities recomputed at the pull's end (vulnerability-clock.ts).
 */
export interface DiffSide {
  seq: number;
  /** When the pull finished (ISO-8601 UTC): the time the vulnerability clock was recomputed at. */
  pulledAt: string;
  /** The reporting period end of the OCR current then, when one was. */
  ocrPeriodEnd?: string;
  /** Each document's current SHA-256 then. */
  documents: Partial<Record<PulledDocumentName, string>>;
  cpo?: unknown;
  sdr?: unknown;
  scn?: unknown;
  incidents?: unknown;
  /** The VDR's entries, then the AVI's (an id listed in both counts as accepted). */
  vulnerabilities: { vdr: RecomputedVulnerability[]; avi: RecomputedVulnerability[] };
}

/** Where a comparison starts or ends. */
export interface DiffEnd {
  seq: number;
  pulledAt: string;
  ocrPeriodEnd?: string;
}

/** A status that changed: `null` where the document does not list the id; `(no status)` where it lists it without one. */
export interface StatusChange {
  id: string;
  from: string | null;
  to: string | null;
}

/** A vulnerability as the comparison names it: its tracking id, rating, and where the `to` side (or, if gone, the `from` side) lists it. */
export interface VulnerabilityChange {
  id: string;
  rating?: number;
  document: 'vdr' | 'avi';
  at: string;
  /** `finalDisposition`, or `no longer listed` for a vulnerability that left both the VDR and the AVI. */
  disposition?: string;
  /** Why it is overdue (newly overdue only): the recomputed reasons. */
  reasons?: string[];
}

/** An incident by its `providerTrackingId`, as its newest report (the list's last) describes it. */
export interface IncidentChange {
  id: string;
  description: string;
  /** The newest report's type then and now (`null`: not listed). */
  from: string | null;
  to: string | null;
  /** Reports listed then and now. */
  reports: { from: number; to: number };
  resolvedAt?: string;
  affectedAgencies: string[];
}

/** An SCN, by its whole content (FedRAMP's SCN schema has no id). */
export interface ScnChange {
  changeType: string;
  changeDescription: string;
  plannedCompletion?: string;
}

/** A CPO field (a leaf, by its JSON path) whose value changed: JSON text, `null` where the field is absent. */
export interface FieldChange {
  path: string;
  from: string | null;
  to: string | null;
}

/** What changed at a provider between two pulls (`svc agency diff`). */
export interface ProviderDiff {
  schema: typeof AGENCY_DIFF_SCHEMA;
  provider: string;
  from: DiffEnd;
  to: DiffEnd;
  /** The documents whose bytes differ, with their SHA-256 then and now (`null`: none). */
  documents: { name: PulledDocumentName; from: string | null; to: string | null }[];
  ksis: StatusChange[];
  requirements: StatusChange[];
  vulnerabilities: { new: VulnerabilityChange[]; remediated: VulnerabilityChange[]; accepted: VulnerabilityChange[]; newlyOverdue: VulnerabilityChange[] };
  incidents: { new: IncidentChange[]; updated: IncidentChange[]; noLongerListed: IncidentChange[] };
  scns: { new: ScnChange[]; noLongerListed: ScnChange[] };
  cpo: FieldChange[];
}

const NO_STATUS = '(no status)';

/** Code-unit order, as canonical JSON orders keys. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What changed between `from` and `to` (DESIGN §14): the documents whose bytes differ; KSI statuses (the SDR's
 * `keySecurityIndicators[].ksiImplementationStatus`) and requirement statuses (`fedRampRequirements[].frrImplementationStatus`)
 * that changed, were added or dropped; vulnerabilities new (in neither list before), remediated (open before, and now
 * given a final disposition or in neither list), accepted (in the AVI now, not before) and newly overdue (overdue as
 * recomputed at `to`'s pull, not at `from`'s); incidents new, with new reports, or no longer listed; SCNs new or no
 * longer listed; CPO fields changed. Each list in id (or path) order.
 */
export function diffProvider(provider: string, from: DiffSide, to: DiffSide): ProviderDiff {
  const names = [...new Set([...Object.keys(from.documents), ...Object.keys(to.documents)] as PulledDocumentName[])].sort(byText);
  return {
    schema: AGENCY_DIFF_SCHEMA,
    provider,
    from: end(from),
    to: end(to),
    documents: names
      .filter((n) => from.documents[n] !== to.documents[n])
      .map((name) => ({ name, from: from.documents[name] ?? null, to: to.documents[name] ?? null })),
    ksis: statusChanges(
      sdrStatuses(from.sdr, 'keySecurityIndicators', 'ksiId', 'ksiImplementationStatus'),
      sdrStatuses(to.sdr, 'keySecurityIndicators', 'ksiId', 'ksiImplementationStatus'),
    ),
    requirements: statusChanges(
      sdrStatuses(from.sdr, 'fedRampRequirements', 'frrID', 'frrImplementationStatus'),
      sdrStatuses(to.sdr, 'fedRampRequirements', 'frrID', 'frrImplementationStatus'),
    ),
    vulnerabilities: vulnerabilityChanges(from, to),
    incidents: incidentChanges(from.incidents, to.incidents),
    scns: scnChanges(from.scn, to.scn),
    cpo: fieldChanges(leaves(from.cpo), leaves(to.cpo)),
  };
}

function end(side: DiffSide): DiffEnd {
  return { seq: side.seq, pulledAt: side.pulledAt, ...(side.ocrPeriodEnd === undefined ? {} : { ocrPeriodEnd: side.ocrPeriodEnd }) };
}

/** id → status of an SDR list; an entry without an id is left out, one without a status is NO_STATUS. */
function sdrStatuses(sdr: unknown, list: string, idKey: string, statusKey: string): Map<string, string> {
  const out = new Map<string, string>();
  const entries = isPlainObject(sdr) ? sdr[list] : undefined;
  if (!Array.isArray(entries)) return out;
  for (const e of entries) {
    if (!isPlainObject(e) || typeof e[idKey] !== 'string') continue;
    const status = e[statusKey];
    out.set(e[idKey], typeof status === 'string' ? status : NO_STATUS);
  }
  return out;
}

function statusChanges(from: Map<string, string>, to: Map<string, string>): StatusChange[] {
  const ids = [...new Set([...from.keys(), ...to.keys()])].sort(byText);
  return ids.filter((id) => from.get(id) !== to.get(id)).map((id) => ({ id, from: from.get(id) ?? null, to: to.get(id) ?? null }));
}

/** Each tracking id once: the AVI's entry where both list it. */
function byId(side: DiffSide): Map<string, { v: RecomputedVulnerability; document: 'vdr' | 'avi' }> {
  const out = new Map<string, { v: RecomputedVulnerability; document: 'vdr' | 'avi' }>();
  for (const v of side.vulnerabilities.vdr) out.set(v.id, { v, document: 'vdr' });
  for (const v of side.vulnerabilities.avi) out.set(v.id, { v, document: 'avi' });
  return out;
}

function vulnerabilityChange(e: { v: RecomputedVulnerability; document: 'vdr' | 'avi' }, extra: Partial<VulnerabilityChange> = {}): VulnerabilityChange {
  return { id: e.v.id, ...(e.v.rating === undefined ? {} : { rating: e.v.rating }), document: e.document, at: e.v.at, ...extra };
}

function isClosed(v: RecomputedVulnerability): boolean {
  return v.disposition === 'Remediated' || v.disposition === 'Fully Mitigated' || v.disposition === 'False Positive';
}

function vulnerabilityChanges(fromSide: DiffSide, toSide: DiffSide): ProviderDiff['vulnerabilities'] {
  const from = byId(fromSide);
  const to = byId(toSide);
  const ids = [...new Set([...from.keys(), ...to.keys()])].sort(byText);
  const changes: ProviderDiff['vulnerabilities'] = { new: [], remediated: [], accepted: [], newlyOverdue: [] };
  for (const id of ids) {
    const was = from.get(id);
    const now = to.get(id);
    if (now === undefined) {
      if (was !== undefined && !was.v.accepted && !isClosed(was.v)) changes.remediated.push(vulnerabilityChange(was, { disposition: 'no longer listed' }));
      continue;
    }
    if (was === undefined) changes.new.push(vulnerabilityChange(now));
    else if (!was.v.accepted && !isClosed(was.v) && isClosed(now.v)) changes.remediated.push(vulnerabilityChange(now, { disposition: now.v.disposition! }));
    if (now.v.accepted && (was === undefined || !was.v.accepted)) changes.accepted.push(vulnerabilityChange(now));
    if (now.v.overdue && (was === undefined || !was.v.overdue)) changes.newlyOverdue.push(vulnerabilityChange(now, { reasons: now.v.reasons }));
  }
  return changes;
}

interface IncidentState {
  description: string;
  latest: string;
  reports: number;
  resolvedAt?: string;
  affectedAgencies: string[];
}

/** The incident list by `providerTrackingId`, each as its newest report (the list's last) has it. */
function incidentStates(list: unknown): Map<string, IncidentState> {
  const out = new Map<string, IncidentState>();
  if (!Array.isArray(list)) return out;
  for (const r of list) {
    if (!isPlainObject(r) || typeof r.providerTrackingId !== 'string') continue;
    const known = out.get(r.providerTrackingId);
    const agencies = Array.isArray(r.affectedAgencies) ? r.affectedAgencies.filter((a): a is string => typeof a === 'string') : [];
    out.set(r.providerTrackingId, {
      description: typeof r.incidentDescription === 'string' ? r.incidentDescription : (known?.description ?? ''),
      latest: typeof r.reportType === 'string' ? r.reportType : NO_STATUS,
      reports: (known?.reports ?? 0) + 1,
      ...(typeof r.resolvedAt === 'string' ? { resolvedAt: r.resolvedAt } : known?.resolvedAt === undefined ? {} : { resolvedAt: known.resolvedAt }),
      affectedAgencies: agencies.length > 0 ? agencies : (known?.affectedAgencies ?? []),
    });
  }
  return out;
}

function incidentChanges(fromList: unknown, toList: unknown): ProviderDiff['incidents'] {
  const from = incidentStates(fromList);
  const to = incidentStates(toList);
  const changes: ProviderDiff['incidents'] = { new: [], updated: [], noLongerListed: [] };
  for (const id of [...new Set([...from.keys(), ...to.keys()])].sort(byText)) {
    const was = from.get(id);
    const now = to.get(id);
    const shown = (now ?? was)!;
    const change: IncidentChange = {
      id,
      description: shown.description,
      from: was?.latest ?? null,
      to: now?.latest ?? null,
      reports: { from: was?.reports ?? 0, to: now?.reports ?? 0 },
      ...(shown.resolvedAt === undefined ? {} : { resolvedAt: shown.resolvedAt }),
      affectedAgencies: shown.affectedAgencies,
    };
    if (was === undefined) changes.new.push(change);
    else if (now === undefined) changes.noLongerListed.push(change);
    else if (was.reports !== now.reports || was.latest !== now.latest || was.resolvedAt !== now.resolvedAt) changes.updated.push(change);
  }
  return changes;
}

/** The SCN list by canonical text (FedRAMP's SCN schema gives an SCN no id), in the list's order. */
function scnTexts(list: unknown): Map<string, ScnChange> {
  const out = new Map<string, ScnChange>();
  if (!Array.isArray(list)) return out;
  for (const s of list) {
    if (!isPlainObject(s)) continue;
    const plan = isPlainObject(s.planAndTimeline) ? s.planAndTimeline : {};
    out.set(canonicalText(s), {
      changeType: typeof s.changeType === 'string' ? s.changeType : NO_STATUS,
      changeDescription: typeof s.changeDescription === 'string' ? s.changeDescription : '',
      ...(typeof plan.plannedCompletion === 'string' ? { plannedCompletion: plan.plannedCompletion } : {}),
    });
  }
  return out;
}

function scnChanges(fromList: unknown, toList: unknown): ProviderDiff['scns'] {
  const from = scnTexts(fromList);
  const to = scnTexts(toList);
  return {
    new: [...to].filter(([text]) => !from.has(text)).map(([, s]) => s),
    noLongerListed: [...from].filter(([text]) => !to.has(text)).map(([, s]) => s),
  };
}

/** Every leaf of a JSON value by path (`serviceIdentification.serviceName`, `contactInformation[0].contactEmail`), as JSON text. */
function leaves(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0 && path !== '') out.set(path, '{}');
    for (const key of keys) leaves(value[key], path === '' ? key : `${path}.${key}`, out);
  } else if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, '[]');
    value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  } else if (value !== undefined && path !== '') out.set(path, JSON.stringify(value));
  return out;
}

function fieldChanges(from: Map<string, string>, to: Map<string, string>): FieldChange[] {
  const paths = [...new Set([...from.keys(), ...to.keys()])].sort(byText);
  return paths.filter((p) => from.get(p) !== to.get(p)).map((path) => ({ path, from: from.get(path) ?? null, to: to.get(path) ?? null }));
}

function endWords(e: DiffEnd): string {
  return `pull ${e.seq} (${e.pulledAt}${e.ocrPeriodEnd === undefined ? '' : `, OCR for the period ending ${e.ocrPeriodEnd}`})`;
}

function cell(value: string | null, absent: string): string {
  return value === null ? absent : markdownText(value);
}

function vulnerabilityLine(v: VulnerabilityChange): string {
  const rating = v.rating === undefined ? 'not rated' : `N${v.rating}`;
  const how = v.disposition === undefined ? '' : `: ${markdownText(v.disposition)}`;
  const why = v.reasons === undefined || v.reasons.length === 0 ? '' : `: ${markdownText(v.reasons.join('; '))}`;
  return `- ${markdownText(v.id)} (${rating}; ${v.document} ${markdownText(v.at)})${how}${why}`;
}

function incidentLine(i: IncidentChange): string {
  const agencies = i.affectedAgencies.length === 0 ? 'no agency named' : `affects ${markdownText(i.affectedAgencies.join(', '))}`;
  const reports = i.from === null || i.to === null ? `${i.from ?? i.to} report` : `${i.from} → ${i.to} report, ${i.reports.from} → ${i.reports.to} reports`;
  const resolved = i.resolvedAt === undefined ? '' : `, resolved ${markdownText(i.resolvedAt)}`;
  return `- ${markdownText(i.id)}: ${markdownText(i.description)} (${markdownText(reports)}; ${agencies}${resolved})`;
}

function scnLine(s: ScnChange): string {
  return `- ${markdownText(s.changeType)}: ${markdownText(s.changeDescription)}${s.plannedCompletion === undefined ? '' : ` (planned completion ${markdownText(s.plannedCompletion)})`}`;
}

function table(head: [string, string, string], rows: { key: string; from: string | null; to: string | null }[], absent: string): string[] {
  if (rows.length === 0) return ['No change.'];
  return [`| ${head.join(' | ')} |`, '| --- | --- | --- |', ...rows.map((r) => `| ${markdownText(r.key)} | ${cell(r.from, absent)} | ${cell(r.to, absent)} |`)];
}

function bullets(groups: [string, string[]][]): string[] {
  const lines = groups.filter(([, list]) => list.length > 0).flatMap(([title, list]) => [`${title}:`, '', ...list, '']);
  return lines.length === 0 ? ['No change.'] : lines.slice(0, -1);
}

/** The diff as Markdown: one section per kind of change, provider text escaped (markdownText), `No change.` where nothing changed. */
export function providerDiffMarkdown(d: ProviderDiff): string {
  const lines = [`# Changes at ${markdownText(d.provider)}`, '', `From ${endWords(d.from)} to ${endWords(d.to)}.`, ''];
  lines.push(
    d.documents.length === 0
      ? 'No document changed.'
      : `Documents changed: ${d.documents.map((x) => `${x.name} (${x.from === null ? 'none' : x.from.slice(0, 12)} → ${x.to === null ? 'none' : x.to.slice(0, 12)})`).join(', ')}.`,
  );
  lines.push('', '## Key Security Indicators', '');
  lines.push(
    ...table(
      ['KSI', 'Was', 'Now'],
      d.ksis.map((k) => ({ key: k.id, from: k.from, to: k.to })),
      'not listed',
    ),
  );
  lines.push('', '## FedRAMP requirements', '');
  lines.push(
    ...table(
      ['Requirement', 'Was', 'Now'],
      d.requirements.map((k) => ({ key: k.id, from: k.from, to: k.to })),
      'not listed',
    ),
  );
  lines.push('', '## Vulnerabilities', '', 'Overdue as svc recomputes it from the VDR and AVI at each pull, not as the provider marks it.', '');
  lines.push(
    ...bullets([
      ['New', d.vulnerabilities.new.map(vulnerabilityLine)],
      ['Remediated', d.vulnerabilities.remediated.map(vulnerabilityLine)],
      ['Accepted', d.vulnerabilities.accepted.map(vulnerabilityLine)],
      ['Newly overdue', d.vulnerabilities.newlyOverdue.map(vulnerabilityLine)],
    ]),
  );
  lines.push('', '## Incidents', '');
  lines.push(
    ...bullets([
      ['New', d.incidents.new.map(incidentLine)],
      ['Updated', d.incidents.updated.map(incidentLine)],
      ['No longer listed', d.incidents.noLongerListed.map(incidentLine)],
    ]),
  );
  lines.push('', '## Significant Change Notifications', '');
  lines.push(
    ...bullets([
      ['New', d.scns.new.map(scnLine)],
      ['No longer listed', d.scns.noLongerListed.map(scnLine)],
    ]),
  );
  lines.push('', '## CPO fields', '');
  lines.push(
    ...table(
      ['Field', 'Was', 'Now'],
      d.cpo.map((c) => ({ key: c.path, from: c.from, to: c.to })),
      'absent',
    ),
  );
  return `${lines.join('\n')}\n`;
}
