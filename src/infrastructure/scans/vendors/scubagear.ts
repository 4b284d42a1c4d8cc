import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, Criticality, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/scubagear-nist.json';
import type { RawInput } from '../raw-input';
import { asText, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'ScubaGear';
const POLICIES = new Map(Object.entries(table.policies as Record<string, { criticality: Criticality; controls: string[]; title: string }>));

/** ScubaGear's `Result` words; a failed Shall reads `Fail`, a failed Should `Warning`. A Map: a file's words are not our keys. */
const RESULTS = new Map<string, CheckOutcome>([
  ['Pass', 'pass'],
  ['Fail', 'fail'],
  ['Warning', 'fail'],
  ['N/A', 'not-applicable'],
  ['Omitted', 'omitted'],
  ['Incorrect result', 'incorrect'],
  ['Error', 'error'],
  ['Error - Test results missing', 'error'],
]);

/**
 * CISA ScubaGear (Microsoft 365 secure configuration baselines): the consolidated `ScubaResults_*.json` and the
 * older raw `TestResults.json`. Controls come from CISA's own "NIST SP 800-53 Rev. 5 FedRAMP High Baseline
 * Mapping" lines, in `data/scubagear-nist.json`.
 */
export const scubagear: VendorParser = {
  info: {
    vendor: 'scubagear',
    tool: TOOL,
    formats: 'ScubaResults_*.json or TestResults.json',
    mapping: 'CISA baseline mapping (data/scubagear-nist.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) =>
    (/"Tool"\s*:\s*"ScubaGear"/.test(head) && head.includes('"MetaData"')) || (/"PolicyId"\s*:\s*"MS\./.test(head) && head.includes('"RequirementMet"')),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = await input.json();
    const mapping = scubagear.info.mapping;
    if (Array.isArray(document)) return { vendor: 'scubagear', tool: TOOL, mapping, checks: document.map((row, i) => testResult(input, row, i)) };
    if (!isPlainObject(document) || !isPlainObject(document.Results))
      throw shapeError(input, TOOL, 'Results', 'missing; a ScubaResults file has MetaData, Summary and Results');
    const meta = isPlainObject(document.MetaData) ? document.MetaData : {};
    const checks: ScanCheck[] = [];
    for (const [product, groups] of Object.entries(document.Results)) {
      if (!Array.isArray(groups)) throw shapeError(input, TOOL, `Results.${product}`, 'expected a list of policy groups');
      groups.forEach((group, g) => {
        const rows = isPlainObject(group) ? group.Controls : undefined;
        if (!Array.isArray(rows)) throw shapeError(input, TOOL, `Results.${product}[${g}].Controls`, 'expected a list of policy rows');
        rows.forEach((row, r) => checks.push(resultRow(input, row, `Results.${product}[${g}].Controls[${r}]`)));
      });
    }
    const tenant = [meta.DomainName, meta.TenantId].find((x) => typeof x === 'string');
    return {
      vendor: 'scubagear',
      tool: typeof meta.Tool === 'string' ? meta.Tool : TOOL,
      ...(typeof meta.ToolVersion === 'string' ? { version: meta.ToolVersion } : {}),
      ...(typeof tenant === 'string' ? { tenant } : {}),
      ...(isoTime(meta.TimestampZulu) ? { observed_at: isoTime(meta.TimestampZulu) } : {}),
      mapping,
      checks,
    };
  },
};

/** A row of ScubaResults: `Control ID`, `Result`, `Criticality`, `Details`. */
function resultRow(input: RawInput, row: unknown, path: string): ScanCheck {
  if (!isPlainObject(row) || typeof row['Control ID'] !== 'string') throw shapeError(input, TOOL, `${path}["Control ID"]`, 'missing');
  const id = row['Control ID'];
  const result = asText(row.Result);
  const outcome = RESULTS.get(result);
  if (!outcome)
    throw shapeError(
      input,
      TOOL,
      `${path}.Result`,
      `"${result.slice(0, 40)}" is not a ScubaGear result (Pass, Fail, Warning, N/A, Omitted, Error, Incorrect result)`,
    );
  return check(id, outcome, asText(row.Criticality ?? ''), typeof row.Details === 'string' ? row.Details : undefined);
}

/** A row of TestResults.json: `PolicyId`, `RequirementMet`, `Criticality`, `ReportDetails`. */
function testResult(input: RawInput, row: unknown, i: number): ScanCheck {
  if (!isPlainObject(row) || typeof row.PolicyId !== 'string') throw shapeError(input, TOOL, `[${i}].PolicyId`, 'missing');
  if (typeof row.RequirementMet !== 'boolean') throw shapeError(input, TOOL, `[${i}].RequirementMet`, 'expected true or false');
  const criticality = asText(row.Criticality ?? '');
  // Not-Implemented and 3rd Party policies are not tested by ScubaGear: RequirementMet says nothing about them.
  const untested = /\/(Not-Implemented|3rd Party)$/.test(criticality);
  const outcome: CheckOutcome = untested ? 'manual' : row.RequirementMet ? 'pass' : 'fail';
  return check(row.PolicyId, outcome, criticality, typeof row.ReportDetails === 'string' ? row.ReportDetails : undefined);
}

function check(id: string, outcome: CheckOutcome, criticality: string, details: string | undefined): ScanCheck {
  const policy = POLICIES.get(id);
  return {
    id,
    outcome,
    criticality: criticality.startsWith('Shall') ? 'must' : criticality.startsWith('Should') ? 'should' : (policy?.criticality ?? 'must'),
    controls: policy?.controls ?? [],
    ...(policy ? { title: policy.title } : {}),
    severity: criticality || undefined,
    ...(details ? { details: details.trim() } : {}),
  };
}
