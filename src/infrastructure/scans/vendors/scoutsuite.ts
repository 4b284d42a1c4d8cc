import { isPlainObject } from '../../../domain/encoding/json-values';
import type { CheckOutcome, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import { parseJson } from '../../../domain/encoding/json-syntax-problem';
import table from '../data/scoutsuite-services.json';
import type { RawInput } from '../raw-input';
import { clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'ScoutSuite';
const SERVICES = table.services as Record<string, string[]>;
const MAX_DETAILS = 300;
const MAX_TITLE = 200;

/**
 * NCC Group ScoutSuite results (`scoutsuite-results/scoutsuite_results_<provider>-<account>.js`): a JavaScript
 * assignment `scoutsuite_results =` of one JSON object. Each `services.<service>.findings.<rule>` is one check;
 * ScoutSuite gives CIS references only, so controls come from svc's table by service.
 */
export const scoutsuite: VendorParser = {
  info: {
    vendor: 'scoutsuite',
    tool: TOOL,
    formats: 'scoutsuite_results_*.js (or the same object as .json)',
    mapping: 'svc service table (data/scoutsuite-services.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) => /^\s*scoutsuite_results\s*=/.test(head) || (/^\s*\{/.test(head) && /"provider_code"\s*:/.test(head) && /"last_run"\s*:/.test(head)),

  async parse(input: RawInput): Promise<ParsedScan> {
    const document = parseJson(jsonPart(await input.text()), input.path);
    if (!isPlainObject(document) || !isPlainObject(document.services))
      throw shapeError(input, TOOL, 'services', 'missing; a ScoutSuite report has account_id, last_run and services');
    const checks: ScanCheck[] = [];
    for (const [service, body] of Object.entries(document.services)) {
      const findings = isPlainObject(body) ? body.findings : undefined;
      if (findings === undefined) continue; // a service ScoutSuite listed but did not assess
      if (!isPlainObject(findings)) throw shapeError(input, TOOL, `services.${service}.findings`, 'expected an object of findings by rule id');
      for (const [id, finding] of Object.entries(findings)) {
        if (id.trim() === '')
          throw shapeError(input, TOOL, `services.${service}.findings`, 'a finding with an empty rule id; every finding is keyed by its rule id');
        checks.push(findingCheck(input, service, id, finding));
      }
    }
    const run = isPlainObject(document.last_run) ? document.last_run : {};
    const observedAt = isoTime(run.time);
    return {
      vendor: 'scoutsuite',
      tool: TOOL,
      ...(typeof run.version === 'string' ? { version: run.version } : {}),
      ...(typeof document.account_id === 'string' || typeof document.account_id === 'number' ? { tenant: String(document.account_id) } : {}),
      ...(observedAt ? { observed_at: observedAt } : {}),
      mapping: scoutsuite.info.mapping,
      checks,
    };
  },
};

/**
 * The JSON object of a `.js` results file: the `scoutsuite_results =` before the first `{` and a trailing `;` are
 * blanked rather than cut, so a JSON error keeps the line and column of the file itself.
 */
function jsonPart(text: string): string {
  const start = text.indexOf('{');
  if (start <= 0) return text;
  return text.slice(0, start).replace(/[^\n]/g, ' ') + text.slice(start).replace(/;(\s*)$/, ' $1');
}

function findingCheck(input: RawInput, service: string, id: string, finding: unknown): ScanCheck {
  const at = `services.${service}.findings.${id}`;
  if (!isPlainObject(finding)) throw shapeError(input, TOOL, at, 'expected a finding object');
  const { checked_items: checked, flagged_items: flagged, level, description } = finding;
  if (typeof checked !== 'number') throw shapeError(input, TOOL, `${at}.checked_items`, 'expected a number');
  if (typeof flagged !== 'number') throw shapeError(input, TOOL, `${at}.flagged_items`, 'expected a number');
  // A rule that found nothing to check says nothing about the account.
  const outcome: CheckOutcome = flagged > 0 ? 'fail' : checked > 0 ? 'pass' : 'not-applicable';
  const items = Array.isArray(finding.items) ? finding.items.filter((x): x is string => typeof x === 'string') : [];
  const details = checked > 0 ? `${flagged} of ${checked} items flagged${items.length > 0 ? `: ${items.slice(0, 5).join(', ')}` : ''}` : 'no items to check';
  return {
    id,
    outcome,
    criticality: level === 'danger' ? 'must' : 'should',
    controls: [...(entry(SERVICES, service) ?? table.default)],
    ...(typeof description === 'string' ? { title: clip(description, MAX_TITLE) } : {}),
    ...(typeof level === 'string' ? { severity: level } : {}),
    resource: service,
    details: clip(details, MAX_DETAILS),
  };
}
