import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cr26DocumentType } from '../../src/domain/fedramp/cr26-documents';
import { FEDRAMP_SCHEMAS } from '../support/fedramp-schemas';
import { PACKAGE_PROFILE } from '../support/fedramp-profile';
import { markdownFields, plainText, renderedWords, sourceWords } from '../support/markdown-fields';
import { REFERENCE, svc } from '../support/run-svc';

/*
 * Issue 34, "Documents that read right": every CR26 document svc writes, opened as FedRAMP's viewer (FedRAMP/JSONViewer)
 * opens it: the fields the schemas declare as Markdown rendered by a CommonMark renderer that drops raw HTML, and the
 * ids read as CR26 ids. Built from the real Prowler sample through `svc adapter run auto` (whose text holds
 * `Prowler <prowler_version>` and `<account_uid>`), a report and a drift report in svc's catalog ids, and the ongoing
 * documents recorded from them; no CISA KEV catalog is configured.
 */
const NOW = '2026-01-02T00:00:00Z';
/** svc's own catalog ids (`KSI-AC-02`): never in a CR26 document, which carries CR26 ids (`KSI-IAM-APM`) and NIST controls. */
const CATALOG_ID = /KSI-[A-Z]{2}-\d\d/;

let work: string;
const at = (...parts: string[]) => join(work, ...parts);
const read = (...parts: string[]) => JSON.parse(readFileSync(at(...parts), 'utf8'));
function run(...args: string[]): string {
  const r = svc(args, { cwd: work, env: { SVC_HOME: at('.svc'), SOURCE_DATE_EPOCH: String(Date.parse('2026-01-01T00:00:00Z') / 1000) } });
  if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}
/** A report of svc's catalog ids, without checks (each result is then its own one check, named by its id). */
const catalogReport = (day: string, statuses: Record<string, string>) => ({
  schema_version: '1',
  generated_at: `${day}T08:00:00Z`,
  source: { tool: 'Prowler', version: '5.0.0' },
  results: Object.entries(statuses).map(([ksi_id, status]) => ({ ksi_id, status, observed_at: `${day}T08:00:00Z` })),
});

/** Every CR26 document written, by file, with its type. */
const documents: { file: string; type: Cr26DocumentType }[] = [];

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-documents-read-right-'));
  writeFileSync(at('svc.config.json'), JSON.stringify({ fedramp: PACKAGE_PROFILE, fedramp_schemas: FEDRAMP_SCHEMAS }));
  copyFileSync(join(REFERENCE, 'raw-samples', 'prowler', 'example_output_aws.ocsf.json'), at('prowler.json'));
  run('adapter', 'run', 'auto', 'prowler.json', '--out', 'prowler-report.json');
  // The adapter's results as a bare array: no report-level tool, so each result's own source, `Prowler <prowler_version>`, names the tool.
  writeFileSync(at('prowler-results.json'), JSON.stringify(read('prowler-report.json').results));
  writeFileSync(at('catalog-old.json'), JSON.stringify(catalogReport('2025-12-20', { 'KSI-AC-02': 'PASS', 'KSI-IR-06': 'PASS' })));
  writeFileSync(at('catalog-new.json'), JSON.stringify(catalogReport('2025-12-31', { 'KSI-AC-02': 'WARN', 'KSI-IR-06': 'FAIL', 'KSI-SC-28': 'FAIL' })));
  run('conmon', 'process', 'prowler-report.json');
  run('conmon', 'process', 'catalog-new.json');
  writeFileSync(at('drift.json'), run('ir', 'drift-detect', 'catalog-old.json', 'catalog-new.json', '--json'));

  run('fedramp', 'package', '--out-dir', 'pkg', '--now', NOW);
  run('fedramp', 'sdr', 'prowler-results.json', '--out', 'sdr-prowler.json', '--now', NOW);
  run(
    'fedramp',
    'scn',
    '--type',
    'adaptive',
    '--summary',
    'New MFA provider',
    '--finish',
    '2026-01-20',
    '--drift',
    'drift.json',
    '--out',
    'scn.json',
    '--now',
    NOW,
  );
  run(
    'vuln',
    'evaluate',
    'accessanalyzer_enabled',
    '--irv',
    'yes',
    '--lev',
    'yes',
    '--n',
    '5',
    '--reason',
    'exposed',
    '--by',
    'ada@example.com',
    '--now',
    '2026-01-01T12:00:00Z',
  );
  run('fedramp', 'incident', '--type', 'initial', '--group', 'accessanalyzer_enabled', '--out', 'incident.json', '--now', NOW);
  run('fedramp', 'ocr', '--to', '2026-01-01', '--now', NOW, '--out', 'ocr.json');

  const types: Record<string, Cr26DocumentType> = {
    cpo: 'cpo',
    sdr: 'sdr',
    'ocr-sample': 'ocr',
    ocr: 'ocr',
    vdr: 'vdr',
    avi: 'avi',
    'vulnerability-history': 'history',
  };
  for (const file of readdirSync(at('pkg')).filter((f) => f.endsWith('.json') && f !== 'manifest.json' && f !== 'package.dsse.json'))
    documents.push({ file: join('pkg', file), type: types[file.slice(0, -5)] });
  documents.push(
    { file: 'sdr-prowler.json', type: 'sdr' },
    { file: 'scn.json', type: 'scn' },
    { file: 'incident.json', type: 'incident' },
    { file: 'ocr.json', type: 'ocr' },
  );
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the CR26 documents svc writes, as FedRAMP reads them', () => {
  it('are every document svc writes: the package (CPO, SDR, sample OCR, VDR, AVI, history), an SDR, an SCN, an incident report and an OCR', () => {
    expect(documents.map((d) => d.type).sort()).toEqual(['avi', 'cpo', 'history', 'incident', 'ocr', 'ocr', 'scn', 'sdr', 'sdr', 'vdr']);
  });

  it('lose no word in a field FedRAMP renders as Markdown (raw HTML dropped), scanner text such as "Prowler <prowler_version>" included', () => {
    const fields = documents.flatMap(({ file, type }) => markdownFields(type, read(file)).map((f) => ({ ...f, file })));
    const lost = fields.filter((f) => renderedWords(f.text).join(' ') !== sourceWords(f.text).join(' ')).map((f) => `${f.file} ${f.path}: ${f.text}`);
    expect(lost).toEqual([]);
    // What is checked holds the SDR's statements, the scanner's text among them, and the SCN's plan.
    const texts = fields.map((f) => plainText(f.text));
    expect(texts.some((t) => t.includes('results from Prowler <prowler_version> reach this KSI'))).toBe(true);
    expect(texts.some((t) => t.includes('(statements file: a "## AFC-CSO-ACK" heading and the statement under it)'))).toBe(true);
    expect(fields.some((f) => f.file === 'scn.json' && f.path === '$.planAndTimeline.summary')).toBe(true);
    expect(fields.length).toBeGreaterThan(300);
  });

  it("carry only CR26 ids: no id of svc's own catalog (KSI-AC-02), though the reports and the drift report name them", () => {
    expect(readFileSync(at('drift.json'), 'utf8')).toMatch(CATALOG_ID);
    const leaks = documents
      .filter((d) => CATALOG_ID.test(readFileSync(at(d.file), 'utf8')))
      .map((d) => `${d.file}: ${readFileSync(at(d.file), 'utf8').match(new RegExp(`.{0,60}${CATALOG_ID.source}.{0,20}`))?.[0]}`);
    expect(leaks).toEqual([]);
    const scn = read('scn.json');
    // KSI-AC-02, KSI-IR-06 and KSI-SC-28 as the CR26 KSIs sharing their controls (KSI-IAM-APM: ac-2; KSI-INR-RIR: ir-6; KSI-SVC-SIN: sc-28).
    expect(scn.impactedControls).toEqual(expect.arrayContaining(['KSI-IAM-APM', 'KSI-INR-RIR', 'KSI-SVC-SIN', 'AC-02', 'IR-06', 'SC-28']));
    expect(read('pkg', 'sdr.json').keySecurityIndicators.find((k: { ksiId: string }) => k.ksiId === 'KSI-IAM-APM').ksiTests).toContain('Prowler:ac-2');
  });

  it('say the KEV status is unknown when no CISA KEV catalog was configured, never "not in the CISA KEV catalog"', () => {
    const impacts = read('pkg', 'vdr.json').vulnerabilities.map((v: { potentialAgencyImpact: string }) => v.potentialAgencyImpact);
    expect(impacts.length).toBeGreaterThan(0);
    for (const impact of impacts) expect(impact).toContain('; KEV status unknown: no CISA KEV catalog was configured;');
    expect(documents.filter((d) => readFileSync(at(d.file), 'utf8').includes('not in the CISA KEV catalog')).map((d) => d.file)).toEqual([]);
  });
});
