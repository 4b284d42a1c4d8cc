import type { Cr26Rules } from './cr26-rules';

/**
 * One rule of the rules data svc's own code relies on (issue 34): what svc uses it for, and what it does when the
 * release in use does not hold it. Everything else svc reads of a rule comes from the data; only these ids are named
 * in code, and test/unit/domain/fedramp/relied-rules.test.ts fails on an id named in src that is not listed here.
 */
export interface ReliedRule {
  id: string;
  /** What svc uses it for: `svc relies on it for <uses>`. */
  uses: string;
  /** What svc does without it: `without it, <without>`. */
  without: string;
}

/** Every rule svc's code names, by id (docs/fedramp.md, "Rules svc relies on", is checked against this list). */
export const RELIED_RULES: readonly ReliedRule[] = [
  { id: 'AGU-USE-CLA', uses: 'whether an agency uses a Class A offering beyond 12 months', without: 'svc agency does not judge Class A use' },
  { id: 'AGU-USE-NFC', uses: "the agency's notice of concerns to FedRAMP", without: 'svc agency notice --to fedramp cites no rule' },
  { id: 'AGU-USE-NPC', uses: "the agency's notice of concerns to the provider", without: 'svc agency notice --to provider cites no rule' },
  { id: 'CCM-OCR-AVL', uses: 'whether the Ongoing Certification Report is recorded on time', without: 'the OCR is not judged' },
  { id: 'CCM-OCR-NRD', uses: 'the next OCR date the CPO carries', without: 'the next OCR date is not judged' },
  { id: 'CDS-CSO-FID', uses: "the FedRAMP ID an agency checks across a provider's documents", without: 'svc agency does not check the FedRAMP ID' },
  { id: 'CDS-CSO-HAD', uses: "the trust center's historical snapshots", without: 'svc-api still serves the snapshots, citing no rule' },
  { id: 'CDS-CSO-PUB', uses: "the trust center's public information", without: 'svc-api still serves it, citing no rule' },
  { id: 'CDS-TRC-AAI', uses: 'the agency access inventory of the access report', without: 'svc-api still reports access, citing the rule nowhere' },
  { id: 'CDS-TRC-ACL', uses: 'the access logging of the access report', without: 'svc-api still logs and reports access, citing the rule nowhere' },
  { id: 'CDS-TRC-USH', uses: "the trust center's access instructions", without: 'the instructions cite no rule' },
  {
    id: 'CDS-UTC-AAD',
    uses: 'when FedRAMP must be told of a denied agency request',
    without: 'the access report lists denials with no date to tell FedRAMP by',
  },
  { id: 'CPO-CSO-MTD', uses: "the CPO twin's metadata section", without: 'the section cites no rule' },
  { id: 'CPO-CSO-OSA', uses: "whether the CPO must carry the assessor's summary", without: "the CPO names no force for the assessor's summary" },
  { id: 'FRC-APP-FCP', uses: "how fresh an initial package's statuses must be", without: 'svc fedramp package --initial still asks 7 days' },
  { id: 'FRC-CLA-MFR', uses: 'what Class A must address', without: 'Class A has only the rules whose subsets name it, and no KSIs' },
  { id: 'FRC-CLA-OFR', uses: 'what Class A may address', without: 'no rule is listed as optional for Class A' },
  { id: 'FRC-CLA-RFR', uses: 'what Class A should address', without: 'no rule is listed as recommended for Class A' },
  { id: 'FRC-CSF-BSL', uses: "each class's Rev5 controls", without: 'the SDR lists no Rev5 controls' },
  { id: 'FRC-CSO-JSN', uses: 'the JSON documents it writes', without: 'svc still validates them against the schemas but judges no rule by it' },
  { id: 'FRC-CSO-PKG', uses: "the sample OCR's note", without: 'the note cites no rule' },
  { id: 'FRC-CSX-MOT', uses: 'the KSI metrics history a class must supply', without: 'history is not judged' },
  { id: 'FRC-CSX-VVK', uses: 'the automated validation methods a KSI must have', without: 'automated methods are counted, not judged' },
  { id: 'IEC-CSO-DPR', uses: "an incident report's note on an N5 by default", without: 'the note cites no rule' },
  { id: 'IEC-CSO-EFI', uses: "an incident report's note on the provider's estimate", without: 'the note cites no rule' },
  { id: 'IEC-CSO-FIR', uses: 'when a final incident report is due', without: 'svc fedramp incident cannot date it and says which rule is missing' },
  { id: 'IEC-CSO-IIR', uses: 'when an initial incident report is due', without: 'svc fedramp incident cannot date it and says which rule is missing' },
  { id: 'IEC-CSO-OIR', uses: 'when an ongoing incident report is due', without: 'svc fedramp incident cannot date it and says which rule is missing' },
  { id: 'MAS-CSO-FLO', uses: 'the information flows document', without: 'svc still writes it, citing no rule' },
  { id: 'MAS-CSO-IIR', uses: 'the information resources document', without: 'svc still writes it, citing no rule' },
  { id: 'MAS-CSO-TPR', uses: 'where the information resources document points third-party resources', without: 'it points to the CPO field, citing no rule' },
  { id: 'SCN-ADP-NTF', uses: 'when an adaptive change is notified', without: 'svc fedramp scn cannot date the notice and says which rule is missing' },
  { id: 'SCN-RTR-NNR', uses: 'that routine recurring changes are not notified', without: 'svc fedramp scn names no force for routine changes' },
  {
    id: 'SCN-TRF-NAF',
    uses: 'when a transformative change is notified after it finishes',
    without: 'svc fedramp scn cannot date the notice and says which rule is missing',
  },
  {
    id: 'SCN-TRF-NAV',
    uses: 'when a transformative change is notified after its verification',
    without: 'svc fedramp scn cannot date the notice and says which rule is missing',
  },
  {
    id: 'SCN-TRF-NFP',
    uses: 'when a transformative change is finally planned',
    without: 'svc fedramp scn cannot date the notice and says which rule is missing',
  },
  {
    id: 'SCN-TRF-NIP',
    uses: 'when a transformative change is first planned',
    without: 'svc fedramp scn cannot date the notice and says which rule is missing',
  },
  { id: 'SDR-CSF-CTF', uses: "the Rev5 controls' statuses in the SDR", without: 'the controls are listed, not judged' },
  { id: 'SDR-CSX-KMT', uses: 'the KSI metrics the SDR carries', without: 'the SDR carries no KSI metrics and they are not judged' },
  { id: 'SDR-CSX-KSI', uses: 'the force of the KSIs for 20x Classes B to D', without: 'the KSIs are judged with no force, so none blocks readiness' },
  {
    id: 'VDR-TFR-KEV',
    uses: 'when a CISA KEV vulnerability must be remediated',
    without: 'vulnerabilities cannot be judged and svc says which rule is missing',
  },
  { id: 'VDR-TFR-MVF', uses: 'the cadence of machine-based evidence for Rev5', without: 'machine-based evidence is not judged for freshness' },
  { id: 'VDR-TFR-MVX', uses: 'the cadence of machine-based evidence for 20x', without: 'machine-based evidence is not judged for freshness' },
  { id: 'VDR-TFR-NMV', uses: 'the cadence of non-machine evidence', without: 'non-machine evidence is not judged for freshness' },
  {
    id: 'VDR-TFR-PVR',
    uses: 'when a vulnerability must be mitigated or remediated',
    without: 'vulnerabilities cannot be judged and svc says which rule is missing',
  },
  { id: 'VER-EVA-EPA', uses: 'the N-ratings a vulnerability can have', without: 'svc rates N1 to N5' },
  { id: 'VER-RPT-AVI', uses: 'where the OCR points to the accepted vulnerabilities', without: 'the OCR points to the AVI, citing no rule' },
  { id: 'VER-RPT-NID', uses: 'what the monthly report says of hashed resource names', without: 'it says so, citing no rule' },
  { id: 'VER-TFR-EVU', uses: 'when a vulnerability must be evaluated', without: 'vulnerabilities cannot be judged and svc says which rule is missing' },
  { id: 'VER-TFR-IRI', uses: 'which internet-reachable vulnerabilities are reportable incidents', without: 'none is flagged as a reportable incident by it' },
  {
    id: 'VER-TFR-MAV',
    uses: 'when a vulnerability not fully mitigated is accepted',
    without: 'vulnerabilities cannot be judged and svc says which rule is missing',
  },
  { id: 'VER-TFR-MHR', uses: 'the monthly vulnerability report', without: 'svc still writes it, citing no rule' },
  { id: 'VER-TFR-MRH', uses: 'the historical vulnerability activity', without: 'svc still writes it, citing no rule' },
  { id: 'VER-TFR-NRI', uses: 'which other vulnerabilities are reportable incidents', without: 'none is flagged as a reportable incident by it' },
];

const BY_ID = new Map(RELIED_RULES.map((r) => [r.id, r]));

/** `id`, once checked to be in RELIED_RULES: how code names a rule it relies on. An unlisted id is a programming error. */
export function reliedRule<T extends string>(id: T): T {
  if (!BY_ID.has(id)) throw new Error(`${id} is not in RELIED_RULES (src/domain/fedramp/relied-rules.ts): list it with what svc uses it for`);
  return id;
}

/** Whether the release in use holds rule `id` (a rule flagged retired is not held). */
export function holdsRule(rules: Pick<Cr26Rules, 'rules'>, id: string): boolean {
  return rules.rules.some((r) => r.id === id);
}

/** The rules svc relies on that the release does not hold, in id order. */
export function missingReliedRules(rules: Pick<Cr26Rules, 'rules'>): ReliedRule[] {
  const held = new Set(rules.rules.map((r) => r.id));
  return RELIED_RULES.filter((r) => !held.has(r.id));
}

/** `Not in CR26 <version>: <id> (svc relies on it for <uses>); without it, <without>`: one line per missing rule. */
export function missingRuleLine(version: string, rule: ReliedRule): string {
  return `Not in CR26 ${version}: ${rule.id} (svc relies on it for ${rule.uses}); without it, ${rule.without}`;
}

/**
 * `{ rule: id }` where the release in use holds rule `id`, else `{}`: how a document svc writes cites a rule it relies
 * on, so it never cites one the release does not hold.
 */
export function citing<T extends string>(rules: Pick<Cr26Rules, 'rules'>, id: T): { rule?: T } {
  return holdsRule(rules, id) ? { rule: id } : {};
}

/** Of `ids`, those the release in use holds, in their order. */
export function heldRules<T extends string>(rules: Pick<Cr26Rules, 'rules'>, ids: readonly T[]): T[] {
  return ids.filter((id) => holdsRule(rules, id));
}

/** `title (A, B)` with the ids of `ids` the release holds, or `title` alone when it holds none. */
export function citedTitle(rules: Pick<Cr26Rules, 'rules'>, title: string, ids: readonly string[]): string {
  const held = heldRules(rules, ids);
  return held.length === 0 ? title : `${title} (${held.join(', ')})`;
}
