import type { SaxesTagNS } from 'saxes';
import { controlsFromReferences } from '../../../domain/catalog/ksi-catalog';
import type { CheckOutcome, ScanCheck, ParsedScan } from '../../../domain/scan/scan';
import table from '../data/openscap-controls.json';
import type { RawInput } from '../raw-input';
import { clip, entry, isoTime, shapeError, type VendorParser } from '../vendor-parser';

const TOOL = 'OpenSCAP';
const DEFAULT_CONTROLS: readonly string[] = table.default;
const MAX_DETAILS = 300;
const MAX_TITLE = 200;

/** XCCDF 1.1/1.2 `result` words (XCCDF 1.2 §6.6.4.2). */
const RESULTS: Record<string, CheckOutcome> = {
  pass: 'pass',
  // Remediated during the scan: the setting is right now.
  fixed: 'pass',
  fail: 'fail',
  error: 'error',
  unknown: 'not-applicable',
  notapplicable: 'not-applicable',
  notchecked: 'not-applicable',
  notselected: 'not-applicable',
  informational: 'not-applicable',
};

/** A `reference` whose `@href` names NIST SP 800-53 (SSG writes the rev4 or rev5 publication URL). */
const NIST_HREF = /800-53/;

interface Rule {
  title?: string;
  severity?: string;
  controls: string[];
}

interface RuleResult {
  idref: string;
  severity?: string;
  result?: string;
  idents: string[];
  message?: string;
}

/**
 * OpenSCAP XCCDF results (`oscap xccdf eval --results`, XCCDF 1.1 or 1.2, also inside an ARF report). Streamed:
 * the Benchmark's Rules (their titles and NIST SP 800-53 `reference`s) come before the TestResult, so each
 * `rule-result` takes its Rule's controls as it is read. Elements are matched by local name, so the XCCDF 1.1
 * and 1.2 namespaces and ARF prefixes all read alike.
 */
/** The root elements of an XCCDF result file: a Benchmark, a TestResult alone, or an ARF report collection. */
const ROOTS = ['Benchmark', 'TestResult', 'asset-report-collection'];

export const openscap: VendorParser = {
  info: {
    vendor: 'openscap',
    tool: TOOL,
    formats: 'XCCDF 1.1/1.2 results XML or ARF (oscap xccdf eval --results / --results-arf)',
    mapping: 'XCCDF Rule references to NIST SP 800-53 (SCAP Security Guide), else cm-6, cm-7 (data/openscap-controls.json)',
    evidence: 'Configuration',
    detections: 'configuration',
  },

  looksLike: (head) =>
    (head.includes('checklists.nist.gov/xccdf/') && /<(?:[\w.-]+:)?(?:Benchmark|TestResult)[\s>]/.test(head)) ||
    /<(?:[\w.-]+:)?asset-report-collection[\s>]/.test(head),

  async parse(input: RawInput): Promise<ParsedScan> {
    const rules = new Map<string, Rule>();
    const checks: ScanCheck[] = [];
    const targets = new Set<string>();
    const stack: string[] = [];
    let rule: { id: string; info: Rule } | undefined;
    let target: string | undefined;
    let inTestResult = false;
    let testResults = 0;
    let earliest: string | undefined;
    let version: string | undefined;
    let current: RuleResult | undefined;
    // The element whose text is being kept, at its depth, and the text so far (capped).
    let capture: { what: 'rule-title' | 'reference' | 'target' | 'result' | 'ident' | 'message'; depth: number; text: string } | undefined;
    const place = () => `TestResult/rule-result[${checks.length + 1}]`;

    const open = (tag: SaxesTagNS) => {
      // XCCDF results, a benchmark with them, or an ARF report that wraps them: nothing else, whatever it holds.
      if (stack.length === 0 && !ROOTS.includes(tag.local))
        throw shapeError(input, TOOL, tag.name, `the root element should be ${ROOTS.slice(0, -1).join(', ')} or ${ROOTS.at(-1)}`);
      stack.push(tag.local);
      const parent = stack[stack.length - 2];
      const attr = (name: string) => tag.attributes[name]?.value;
      const keep = (what: NonNullable<typeof capture>['what']) => {
        capture = { what, depth: stack.length, text: '' };
      };
      switch (tag.local) {
        case 'Rule':
          rule = { id: clip(attr('id') ?? '', MAX_TITLE), info: { severity: clip(attr('severity') ?? '', MAX_TITLE), controls: [] } };
          break;
        case 'title':
          if (rule && parent === 'Rule') keep('rule-title');
          break;
        case 'reference':
          if (rule && parent === 'Rule' && NIST_HREF.test(attr('href') ?? '')) keep('reference');
          break;
        case 'TestResult': {
          inTestResult = true;
          testResults += 1;
          target = undefined;
          const start = xccdfTime(attr('start-time') ?? attr('end-time'));
          if (start && (earliest === undefined || Date.parse(start) < Date.parse(earliest))) earliest = start;
          // `test-system` is the checking engine's CPE: cpe:/a:redhat:openscap:1.3.5.
          const engine = /openscap:([\d.]+)/i.exec(attr('test-system') ?? '')?.[1];
          if (engine) version ??= clip(engine, MAX_TITLE);
          break;
        }
        case 'target':
          if (parent === 'TestResult') keep('target');
          break;
        case 'rule-result': {
          if (!inTestResult) throw shapeError(input, TOOL, 'rule-result', 'outside a TestResult');
          const idref = attr('idref');
          if (!idref) throw shapeError(input, TOOL, `${place()}/@idref`, 'missing');
          const severity = attr('severity');
          current = { idref: clip(idref, MAX_TITLE), ...(severity ? { severity: clip(severity, MAX_TITLE) } : {}), idents: [] };
          break;
        }
        case 'result':
        case 'ident':
        case 'message':
          if (current && parent === 'rule-result') keep(tag.local);
          break;
      }
    };

    const text = (chunk: string) => {
      if (capture && capture.text.length < 4 * MAX_DETAILS) capture.text += chunk.slice(0, 4 * MAX_DETAILS - capture.text.length);
    };

    const close = (tag: SaxesTagNS) => {
      if (capture && capture.depth === stack.length) {
        const value = capture.text.replace(/\s+/g, ' ').trim();
        if (capture.what === 'rule-title' && rule) rule.info.title = clip(value, MAX_TITLE);
        else if (capture.what === 'reference' && rule) rule.info.controls.push(...nistControls(value));
        else if (capture.what === 'target' && value) targets.add((target = clip(value, MAX_TITLE)));
        else if (capture.what === 'result' && current) current.result = value;
        else if (capture.what === 'ident' && current && value) current.idents.push(clip(value, 80));
        else if (capture.what === 'message' && current && value) current.message ??= clip(value, MAX_DETAILS);
        capture = undefined;
      }
      switch (tag.local) {
        case 'Rule':
          if (rule?.id) rules.set(rule.id, { ...rule.info, controls: [...new Set(rule.info.controls)] });
          rule = undefined;
          break;
        case 'TestResult':
          inTestResult = false;
          break;
        case 'rule-result':
          if (current) checks.push(ruleCheck(input, current, rules.get(current.idref), target, place()));
          current = undefined;
          break;
      }
      stack.pop();
    };

    await input.xml({ open, text, close });
    if (testResults === 0)
      throw shapeError(input, TOOL, 'TestResult', 'missing; this is a benchmark without results, run it with "oscap xccdf eval --results <file>"');
    return {
      vendor: 'openscap',
      tool: TOOL,
      ...(version ? { version } : {}),
      ...(targets.size > 0 ? { tenant: [...targets].join(', ') } : {}),
      ...(earliest ? { observed_at: earliest } : {}),
      mapping: openscap.info.mapping,
      checks,
    };
  },
};

function ruleCheck(input: RawInput, r: RuleResult, rule: Rule | undefined, target: string | undefined, place: string): ScanCheck {
  if (r.result === undefined) throw shapeError(input, TOOL, `${place}/result`, `missing for rule ${r.idref}`);
  const outcome = entry(RESULTS, r.result);
  if (!outcome)
    throw shapeError(
      input,
      TOOL,
      `${place}/result`,
      `"${r.result.slice(0, 40)}" is not an XCCDF result (pass, fail, error, unknown, notapplicable, notchecked, notselected, informational, fixed)`,
    );
  const severity = r.severity || rule?.severity;
  const details = [r.message, r.idents.join(', ')].filter(Boolean).join('; ');
  return {
    id: r.idref,
    outcome,
    // XCCDF severities: unknown, info, low, medium, high; only a high-severity rule fails its KSI.
    criticality: severity === 'high' ? 'must' : 'should',
    controls: rule && rule.controls.length > 0 ? rule.controls : [...DEFAULT_CONTROLS],
    ...(rule?.title ? { title: rule.title } : {}),
    ...(severity ? { severity } : {}),
    ...(target ? { resource: target } : {}),
    ...(details ? { details: clip(details, MAX_DETAILS) } : {}),
  };
}

/**
 * `AC-2(1),CM-6(a),CM-6(b)` → `ac-2.1`, `cm-6`: statement letters and revision markers dropped, enhancements kept,
 * each control once.
 */
function nistControls(text: string): string[] {
  return controlsFromReferences(text.split(/[,;]/));
}

/** XCCDF times are xsd:dateTime; OpenSCAP writes them without an offset, which svc takes as UTC. */
function xccdfTime(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return isoTime(/T\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value) ? `${value}Z` : value);
}
