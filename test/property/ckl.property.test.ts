import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { CheckOutcome } from '../../src/domain/scan/scan';
import { controlsOfCcis } from '../../src/infrastructure/scans/cci-controls';
import { ckl } from '../../src/infrastructure/scans/vendors/ckl';
import { rawSample, readWith, scratchFolder } from '../support/adapters';
import { FIXTURES } from '../support/run-svc';
import { brokenText, jsonText, mutate, mutations, SEED, typedOutcome } from './bad-input';

const CKL_SAMPLE = rawSample('ckl', 'small_ckl_overrides.ckl');
const CKLB_FIXTURE = join(FIXTURES, 'ckl', 'small_ckl_overrides.cklb');
const { write } = scratchFolder('svc-property-ckl-');
let n = 0;

/** One rule of a generated checklist; `valid` rules use only words STIG Viewer writes. */
interface GenRule {
  id: string;
  status: string;
  severity: string;
  override: string;
  ccis: string[];
  details: string;
  comments: string;
}

const STATUS: Record<string, { ckl: string; cklb: string; outcome: CheckOutcome }> = {
  pass: { ckl: 'NotAFinding', cklb: 'not_a_finding', outcome: 'pass' },
  fail: { ckl: 'Open', cklb: 'open', outcome: 'fail' },
  na: { ckl: 'Not_Applicable', cklb: 'not_applicable', outcome: 'not-applicable' },
  nr: { ckl: 'Not_Reviewed', cklb: 'not_reviewed', outcome: 'manual' },
};
/** CCIs of each kind: Rev. 5 (CM-6, AC-8), Rev. 4 only (IA-5 (1)), neither, and not in the list. */
const CCIS = ['CCI-000366', 'CCI-000048', 'CCI-000192', 'CCI-001263', 'CCI-999999'];
/** Text an assessor writes: any printable character XML can carry, markup characters included. */
const prose = fc.string({ unit: fc.constantFrom(...'aZ09 <>&"\'\n\t;:…é€-_'.split('')), maxLength: 400 });

const validRule: fc.Arbitrary<GenRule> = fc.record({
  id: fc.nat({ max: 999999 }).map((v) => `V-${v}`),
  status: fc.constantFrom(...Object.keys(STATUS)),
  severity: fc.constantFrom('high', 'medium', 'low', 'CAT I', 'CAT II', 'CAT III', '', 'unknown'),
  override: fc.constantFrom('', '', 'high', 'low', 'CAT II'),
  ccis: fc.subarray(CCIS),
  details: prose,
  comments: prose,
});
/** Anything in any field: other words, control characters, empty ids. */
const anyRule: fc.Arbitrary<GenRule> = fc.record({
  id: fc.oneof(fc.string({ maxLength: 12 }), fc.constant('')),
  status: fc.oneof(fc.constantFrom('Open', 'not_a_finding', 'NOT REVIEWED', ''), fc.string({ maxLength: 12 })),
  severity: fc.oneof(fc.constantFrom('high', 'cat i', 'critical', ''), fc.string({ maxLength: 8 })),
  override: fc.oneof(fc.constant(''), fc.string({ maxLength: 8 })),
  ccis: fc.array(fc.oneof(fc.constantFrom(...CCIS), fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor')), { maxLength: 4 }),
  details: fc.string({ maxLength: 100 }),
  comments: fc.string({ unit: 'binary', maxLength: 50 }),
});

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const stigData = (name: string, value: string) =>
  `<STIG_DATA><VULN_ATTRIBUTE>${name}</VULN_ATTRIBUTE><ATTRIBUTE_DATA>${escape(value)}</ATTRIBUTE_DATA></STIG_DATA>`;
const wordOf = (status: string, format: 'ckl' | 'cklb') => STATUS[status]?.[format] ?? status;

function cklText(rules: GenRule[], host: string): string {
  const vulns = rules.map(
    (r) =>
      `<VULN>${stigData('Vuln_Num', r.id)}${stigData('Severity', r.severity)}${stigData('Rule_ID', `SV-${r.id}_rule`)}${stigData('Rule_Title', r.details.slice(0, 40))}${r.ccis.map((c) => stigData('CCI_REF', c)).join('')}` +
      `<STATUS>${escape(wordOf(r.status, 'ckl'))}</STATUS><FINDING_DETAILS>${escape(r.details)}</FINDING_DETAILS><COMMENTS>${escape(r.comments)}</COMMENTS><SEVERITY_OVERRIDE>${escape(r.override)}</SEVERITY_OVERRIDE><SEVERITY_JUSTIFICATION>why</SEVERITY_JUSTIFICATION></VULN>`,
  );
  const info =
    '<STIG_INFO><SI_DATA><SID_NAME>title</SID_NAME><SID_DATA>Generated STIG</SID_DATA></SI_DATA><SI_DATA><SID_NAME>version</SID_NAME><SID_DATA>1</SID_DATA></SI_DATA><SI_DATA><SID_NAME>releaseinfo</SID_NAME><SID_DATA>Release: 2</SID_DATA></SI_DATA></STIG_INFO>';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<CHECKLIST><ASSET><HOST_NAME>${escape(host)}</HOST_NAME></ASSET><STIGS><iSTIG>${info}${vulns.join('')}</iSTIG></STIGS></CHECKLIST>\n`;
}

function cklbDocument(rules: GenRule[], host: string): unknown {
  return {
    title: 'generated',
    stigs: [
      {
        stig_name: 'Generated STIG',
        version: '1',
        release_info: 'Release: 2',
        rules: rules.map((r) => ({
          group_id: r.id,
          rule_id_src: `SV-${r.id}_rule`,
          severity: r.severity,
          rule_title: r.details.slice(0, 40),
          ccis: r.ccis,
          status: wordOf(r.status, 'cklb'),
          overrides: r.override ? { severity: { severity: r.override, reason: 'why' } } : {},
          finding_details: r.details,
          comments: r.comments,
        })),
      },
    ],
    target_data: { host_name: host },
    cklb_version: '1.0',
  };
}

const read = async (content: string | Buffer, ext: string) => {
  const path = write(`input-${n++}${ext}`, content);
  return typedOutcome(() => readWith(ckl, path), path);
};

describe('ckl adapter on generated checklists', () => {
  it('reads valid CKL and CKLB alike: one check per rule, its outcome, its criticality, its controls, unmapped when its CCIs map to nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(validRule, { minLength: 1, maxLength: 6 }), fc.constantFrom('', 'web-01', 'db <&> 02'), async (rules, host) => {
        const fromCkl = await read(cklText(rules, host), '.ckl');
        const fromCklb = await read(JSON.stringify(cklbDocument(rules, host)), '.cklb');
        if (!fromCkl.ok) throw new Error(`a valid CKL was refused: ${fromCkl.error.message}`);
        if (!fromCklb.ok) throw new Error(`a valid CKLB was refused: ${fromCklb.error.message}`);
        expect(fromCklb.value.checks).toEqual(fromCkl.value.checks);
        expect(fromCkl.value.tenant).toBe(host || undefined);
        rules.forEach((rule, i) => {
          const check = fromCkl.value.checks[i];
          const level = (rule.override || rule.severity).toLowerCase();
          expect(check).toMatchObject({
            id: rule.id,
            outcome: STATUS[rule.status].outcome,
            criticality: level === 'high' || level === 'cat i' ? 'must' : 'should',
            controls: controlsOfCcis(rule.ccis).controls,
          });
          expect((check.details ?? '').length).toBeLessThanOrEqual(300);
        });
        expect(fromCkl.value.checks).toHaveLength(rules.length);
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('gives a result or a typed one-line error naming the file for any field values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyRule, { maxLength: 4 }), fc.string({ maxLength: 10 }), async (rules, host) => {
        await read(cklText(rules, host), '.ckl');
        await read(JSON.stringify(cklbDocument(rules, host)), '.cklb');
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

describe('ckl adapter on damaged real checklists', () => {
  it('gives a result or a typed error for the CKLB fixture with its JSON changed', async () => {
    const original = JSON.parse(readFileSync(CKLB_FIXTURE, 'utf8')) as unknown;
    await fc.assert(
      fc.asyncProperty(mutations(3), fc.nat(), async (changes, style) => {
        await read(jsonText(mutate(original, changes), style), '.cklb');
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  it.each([
    ['small_ckl_overrides.ckl', CKL_SAMPLE],
    ['small_ckl_overrides.cklb', CKLB_FIXTURE],
  ])('%s cut short, with a byte changed, or replaced by random text gives a result or a typed error', async (_name, file) => {
    const start = readFileSync(file, 'utf8').slice(0, 4096);
    await fc.assert(
      fc.asyncProperty(brokenText(start), async (content) => {
        const outcome = await read(content, '.ckl');
        if (!outcome.ok) expect(['input-empty', 'wrong-vendor', 'invalid-json', 'invalid-xml', 'invalid-scan']).toContain(outcome.error.code);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});
