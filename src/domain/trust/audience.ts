import type { Cr26Rules } from '../fedramp/cr26-rules';
import type { OcrDocument, OcrIncident } from '../fedramp/ocr-document';
import { citedTitle } from '../fedramp/relied-rules';

/**
 * Who reads a trust-center document, where that changes what it says (DESIGN §9, §12.7). Incident reports go to the
 * agencies each lists as affected and to auditors (FedRAMP's incident rules); the Ongoing Certification Report goes to
 * all necessary parties (CCM-OCR-AVL), so its reportable incidents are cut to the reader: an agency reads in full the
 * incidents that list it and, of every other one, only that it occurred (docs/fedramp.md, "What an OCR tells each
 * agency of incidents").
 */

/**
 * Whose incidents a request sees: an auditor every one (`all`); an agency's principal those that list its agency as
 * affected; a principal holding the agency role by name, recognized as no agency (`{}`), none.
 */
export type IncidentAudience = { all: true } | { agency?: string };

/** The trust-center documents whose bytes depend on the audience: built, cached and validated per audience. */
export const AUDIENCE_DOCUMENTS: readonly string[] = ['ocr', 'incidents'];

/** A stable key of an audience, for caches: `all`, `agency:<name>` or `none`. */
export function audienceKey(audience: IncidentAudience | undefined): string {
  if (audience !== undefined && 'all' in audience) return 'all';
  return audience?.agency === undefined ? 'none' : `agency:${JSON.stringify(audience.agency)}`;
}

/** Whether `audience` reads in full an incident whose reports list `affected` agencies. */
export function seesIncident(audience: IncidentAudience | undefined, affected: readonly string[]): boolean {
  if (audience !== undefined && 'all' in audience) return true;
  return audience?.agency !== undefined && affected.includes(audience.agency);
}

/** Each incident's affected agencies, by tracking id: every agency any of its reports (initial, ongoing, final) lists. */
export function incidentAgencies(reports: readonly { tracking_id: string; affected_agencies: readonly string[] }[]): Map<string, string[]> {
  const byId = new Map<string, Set<string>>();
  for (const report of reports) {
    const agencies = byId.get(report.tracking_id) ?? new Set<string>();
    for (const agency of report.affected_agencies) agencies.add(agency);
    byId.set(report.tracking_id, agencies);
  }
  return new Map([...byId].map(([id, agencies]) => [id, [...agencies]]));
}

/**
 * What an OCR served to an agency says of an incident that does not list it: that a FedRAMP Reportable Incident
 * occurred in the period (so the list is never the attestation that none did, which an empty `incidents` is), and
 * nothing of what, when or how.
 */
const WITHHELD =
  'A FedRAMP Reportable Incident that did not affect your agency occurred in this period. Its summary, times and lessons learned are withheld here; they go to the agencies it affected, to FedRAMP and to the assessor';

/** What a withheld incident says, citing CCM-OCR-AVL only where the rules release in use holds it. */
export function withheldIncident(rules: Pick<Cr26Rules, 'rules'>): string {
  return `${citedTitle(rules, WITHHELD, ['CCM-OCR-AVL'])}.`;
}

/** What a withheld incident says where the release holds CCM-OCR-AVL (every release so far). */
export const WITHHELD_INCIDENT = `${WITHHELD} (CCM-OCR-AVL).`;

/** An OCR as a reader gets it: each incident entry the reader may not read is one sentence, `{summary}` alone. */
export type OcrForReader = Omit<OcrDocument, 'reportableIncidents'> & { reportableIncidents: { incidents: (OcrIncident | { summary: string })[] } };

/**
 * The OCR as `audience` reads it. An auditor reads it exactly as recorded. Any other reader gets every entry of
 * `reportableIncidents.incidents` whose incident lists its agency as recorded, and in place of each other entry one
 * `{summary: WITHHELD_INCIDENT}` (no times, no lessons), in the same place of the list. An entry is tied to its
 * incident by the `<tracking id>: ` its summary starts with (ocr.ts writes it so); an entry tied to no recorded
 * incident is withheld too. The OCR is returned unchanged when it holds no incident entry.
 */
export function ocrForAudience(
  ocr: OcrDocument,
  agencies: ReadonlyMap<string, readonly string[]>,
  audience: IncidentAudience | undefined,
  withheld = WITHHELD_INCIDENT,
): OcrForReader {
  if (audience !== undefined && 'all' in audience) return ocr;
  // The OCR is read back from the journal as recorded: what its incidents hold is checked, not assumed.
  const reportable: { incidents?: unknown } | undefined = ocr.reportableIncidents;
  if (reportable === undefined || !Array.isArray(reportable.incidents) || reportable.incidents.length === 0) return ocr;
  const incidents = reportable.incidents.map((entry: unknown) => {
    const summary = typeof entry === 'object' && entry !== null ? (entry as { summary?: unknown }).summary : undefined;
    const id = typeof summary === 'string' ? [...agencies.keys()].find((tracking) => summary.startsWith(`${tracking}: `)) : undefined;
    return id !== undefined && seesIncident(audience, agencies.get(id) ?? []) ? (entry as OcrIncident) : { summary: withheld };
  });
  return { ...ocr, reportableIncidents: { ...reportable, incidents } };
}
