import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ScanWeakness, ParsedScan } from '../../../domain/scan/scan';
import trivyTable from '../data/trivy-nist.json';
import type { RawInput } from '../raw-input';
import { asText, clip, isoTime, type Json, list, obj, shapeError, text, type VendorParser } from '../vendor-parser';

const TOOL = 'Grype';
/** A known vulnerability in an installed package is the same finding whichever scanner reports it: Trivy's class table says what it evidences. */
const CONTROLS = trivyTable.classes.vulnerability;
/**
 * Grype's severities (grype/vulnerability/severity.go). Critical and High fail as musts, Medium, Low and Negligible
 * (Debian's and Ubuntu's lowest, which Trivy reads as LOW) as shoulds; an Unknown-severity match decides nothing for its
 * KSI, as with Trivy, but is a detection all the same: CR26 rates it by PAIN, not by the scanner's severity.
 */
const SEVERITIES = new Map<string, Criticality>([
  ['critical', 'must'],
  ['high', 'must'],
  ['medium', 'should'],
  ['low', 'should'],
  ['negligible', 'should'],
]);
/** `fix.state`: `fixed` has a patched version; `not-fixed` and `wont-fix` have none; `unknown` says nothing. */
const FIX_STATES = new Map<unknown, boolean>([
  ['fixed', true],
  ['not-fixed', false],
  ['wont-fix', false],
]);
const CVE = /^CVE-\d{4}-\d+$/i;

/**
 * Anchore Grype JSON (`grype <target> -o json`): one check per match (a vulnerability in one package), failed by its
 * severity; one per ignored match (`ignoredMatches`, kept only with ignore rules), omitted; plus one `scan:<target>`
 * pass for the scanned image, directory or SBOM (Grype lists findings only, so a clean scan shows as PASS). Grype has
 * no NIST references: every match evidences the controls of Trivy's vulnerability class (`data/trivy-nist.json`).
 */
export const grype: VendorParser = {
  info: {
    vendor: 'grype',
    tool: TOOL,
    formats: 'Grype JSON (-o json)',
    mapping: 'svc Trivy class table, vulnerability class (data/trivy-nist.json)',
    evidence: 'Report',
    detections: 'vulnerability',
  },

  // The descriptor comes last: a report with matches is known by their fields, an empty one by its descriptor.
  looksLike: (head) =>
    /^\s*\{\s*"matches"\s*:\s*\[/.test(head) &&
    (/"matchDetails"\s*:/.test(head) || /"relatedVulnerabilities"\s*:/.test(head) || /"descriptor"\s*:\s*\{\s*"name"\s*:\s*"grype"/.test(head)),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    if (!isPlainObject(document) || !Array.isArray(document.matches))
      throw shapeError(input, TOOL, 'matches', 'missing; a Grype JSON report is {"matches": [...], "source": ..., "descriptor": {"name": "grype", ...}}');
    const target = targetOf(document.source);
    const checks = document.matches.map((match, i) => matchCheck(input, match, target, `matches[${i}]`, 'fail'));
    const ignored = document.ignoredMatches ?? [];
    if (!Array.isArray(ignored)) throw shapeError(input, TOOL, 'ignoredMatches', 'expected a list of matches');
    ignored.forEach((match, i) => checks.push(matchCheck(input, match, target, `ignoredMatches[${i}]`, 'omitted')));
    checks.push({
      id: `scan:${target ?? 'grype'}`,
      outcome: 'pass',
      criticality: 'should',
      controls: CONTROLS,
      title: 'Target scanned',
      ...(target ? { resource: target } : {}),
      details: `${document.matches.length} matches`,
    });
    const descriptor = obj(document.descriptor);
    const observedAt = isoTime(descriptor.timestamp);
    return {
      vendor: 'grype',
      tool: TOOL,
      ...(typeof descriptor.version === 'string' && descriptor.version !== '' ? { version: descriptor.version } : {}),
      ...(observedAt ? { observed_at: observedAt } : {}),
      mapping: grype.info.mapping,
      checks,
    };
  },
};

function matchCheck(input: RawInput, match: unknown, target: string | undefined, path: string, listed: 'fail' | 'omitted'): ScanCheck {
  if (!isPlainObject(match)) throw shapeError(input, TOOL, path, 'expected a match object');
  const vulnerability = match.vulnerability;
  if (!isPlainObject(vulnerability) || typeof vulnerability.id !== 'string' || vulnerability.id.trim() === '')
    throw shapeError(input, TOOL, `${path}.vulnerability.id`, 'missing');
  const artifact = match.artifact;
  if (!isPlainObject(artifact) || typeof artifact.name !== 'string' || artifact.name.trim() === '')
    throw shapeError(input, TOOL, `${path}.artifact.name`, 'missing');
  const id = vulnerability.id.trim();
  const related = list(match.relatedVulnerabilities).map(obj);
  const label = text(vulnerability.severity);
  const criticality = label === undefined ? undefined : SEVERITIES.get(label.toLowerCase());
  const outcome: CheckOutcome = listed === 'fail' && !criticality ? 'not-applicable' : listed;
  const version = text(artifact.version);
  const pkg = `${artifact.name.trim()}${version ? `@${version}` : ''}`;
  const location = text(obj(list(artifact.locations)[0]).path);
  const fix = obj(vulnerability.fix);
  const fixAvailable = FIX_STATES.get(fix.state);
  const versions = list(fix.versions).filter((v): v is string => typeof v === 'string' && v !== '');
  const findingId = findingOf(id, related);
  const score = cvssOf([vulnerability, ...related.filter((r) => r.id === id || r.id === findingId)]);
  const description = text(vulnerability.description) ?? related.map((r) => text(r.description)).find(Boolean);
  const matchType = text(obj(list(match.matchDetails)[0]).type);
  const type = text(artifact.type);
  const details = [
    `${pkg}${type ? ` (${type})` : ''}: ${versions.length > 0 ? `fixed in ${versions.join(', ')}` : `no fixed version${text(fix.state) ? ` (${text(fix.state)})` : ''}`}`,
    score && `CVSS ${score.score}${score.vector ? ` ${score.vector}` : ''}`,
    findingId !== id && `same as ${findingId}`,
    matchType && `match: ${matchType}`,
    listed === 'omitted' && `ignored by ${ignoreRules(match)}`,
    text(vulnerability.dataSource),
  ].filter(Boolean);
  const weakness: ScanWeakness = {
    ...(findingId !== id ? { finding_id: findingId, aliases: [id] } : {}),
    ...(outcome === 'not-applicable' ? { detected: true } : {}),
    ...(score ? { cvss: score.score } : {}),
    ...(fixAvailable === undefined ? {} : { fix_available: fixAvailable }),
  };
  return {
    id,
    outcome,
    criticality: criticality ?? 'should',
    controls: CONTROLS,
    title: clip(description ?? id, 120),
    ...(label ? { severity: label } : {}),
    resource: [target && `${target}:`, pkg, location && `(${location})`].filter(Boolean).join(' '),
    details: clip(details.join('; '), 300),
    ...(Object.keys(weakness).length > 0 ? { weakness } : {}),
  };
}

/**
 * The CVSS v3 base score of a match: NVD's, else any other source's, from the vulnerability's own record and the
 * related records of the same id or of the CVE it is grouped under (Grype puts NVD's there when the match came from a
 * distribution's or GitHub's feed). A v2 score is
 * never taken, as with Trivy.
 */
function cvssOf(records: readonly Json[]): { score: number; vector?: string } | undefined {
  const scores = records
    .flatMap((r) => list(r.cvss).map(obj))
    .flatMap((c) => {
      const score = obj(c.metrics).baseScore;
      if (!/^3(\.\d+)?$/.test(asText(c.version ?? '')) || typeof score !== 'number' || !(score >= 0 && score <= 10)) return [];
      return [{ nvd: /nvd/i.test(asText(c.source ?? '')), score, vector: text(c.vector) }];
    });
  const best = scores.find((s) => s.nvd) ?? scores[0];
  return best && { score: best.score, ...(best.vector ? { vector: best.vector } : {}) };
}

/**
 * What the vulnerability register groups the match under: a GHSA or distribution advisory with exactly one related
 * CVE is that CVE, so Grype's GHSA and Trivy's CVE for the same flaw are one group (VER-EVA-GRV).
 */
function findingOf(id: string, related: readonly Json[]): string {
  if (CVE.test(id)) return id;
  const cves = [...new Set(related.map((r) => text(r.id)).filter((r): r is string => r !== undefined && CVE.test(r)))];
  return cves.length === 1 ? cves[0] : id;
}

/** The ignore rules Grype applied to an ignored match, as "reason" or the rule's fields. */
function ignoreRules(match: Json): string {
  const rules = list(match.appliedIgnoreRules).map(obj);
  const said = rules
    .map(
      (r) =>
        text(r.reason) ??
        Object.entries(r)
          .filter(([, v]) => typeof v === 'string' && v !== '')
          .map(([k, v]) => `${k}=${asText(v)}`)
          .join(' '),
    )
    .filter(Boolean);
  return said.length > 0 ? `rule: ${said.slice(0, 3).join(', ')}` : 'an ignore rule';
}

/** The scanned image (as the user named it), directory, file or SBOM. */
function targetOf(source: unknown): string | undefined {
  const target = obj(source).target;
  if (typeof target === 'string') return text(target);
  const t = obj(target);
  return text(t.userInput) ?? text(t.name) ?? text(t.path);
}
