import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { BuildEvidenceBundle } from '../../src/application/evidence/build-evidence-bundle';
import { RunLoader } from '../../src/application/shared/run-loader';
import { readNormalizedReport } from '../../src/domain/ksi/ksi-result';
import { parseJson } from '../../src/domain/encoding/json-syntax-problem';
import { FsReportReader } from '../../src/infrastructure/reports/fs-report-reader';
import { doubles } from '../support/harness';
import { FIXTURES } from '../support/run-svc';
import { asJson, brokenText, jsonText, jsonValue, mutate, mutations, SEED, typedOutcome, typedResult } from './bad-input';

const FILE = 'reports/in.json';
const SAMPLE: unknown = JSON.parse(readFileSync(join(FIXTURES, 'sample-baseline.json'), 'utf8'));
const SAMPLE_TEXT = readFileSync(join(FIXTURES, 'sample-baseline.json'), 'utf8');
const OFFICIAL = new Set(['KSI-IAM-MFA', 'KSI-CNA-RNT']);

/** The checks a report gets from svc: the shape (built-in ids, or a release's official ones too). */
const shapeOf = (document: unknown, official: boolean) =>
  readNormalizedReport(document, FILE, official ? { acceptsId: (id) => OFFICIAL.has(id), arrayPath: 'results' } : {});

describe('readNormalizedReport on bad input', () => {
  it('gives a report or a one-line invalid-report error naming the file, for any JSON value', () => {
    fc.assert(
      fc.property(jsonValue(4), fc.boolean(), (document, official) => {
        const outcome = typedResult(() => shapeOf(document, official), FILE);
        if (!outcome.ok) expect(outcome.error.code).toBe('invalid-report');
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('gives a report or an invalid-report error for the sample baseline with fields replaced, deleted, renamed or duplicated', () => {
    fc.assert(
      fc.property(mutations(3), fc.boolean(), (changes, official) => {
        const outcome = typedResult(() => shapeOf(mutate(SAMPLE, changes), official), FILE);
        if (!outcome.ok) expect(outcome.error.code).toBe('invalid-report');
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('names the first duplicate id and where it first was, whichever result is repeated', () => {
    const results = (SAMPLE as { results: { ksi_id: string }[] }).results;
    fc.assert(
      fc.property(fc.nat({ max: results.length - 1 }), fc.nat({ max: results.length }), (from, to) => {
        const copy = structuredClone(results);
        copy.splice(to, 0, structuredClone(results[from]));
        const outcome = typedResult(() => readNormalizedReport({ results: copy }, FILE), FILE);
        expect(outcome.ok).toBe(false);
        const first = copy.findIndex((r) => r.ksi_id === results[from].ksi_id);
        const second = copy.findIndex((r, i) => i > first && r.ksi_id === results[from].ksi_id);
        if (!outcome.ok)
          expect(outcome.error.message).toBe(
            `${FILE}: results[${second}].ksi_id: duplicate "${results[from].ksi_id}" (first at results[${first}]); keep one result per KSI, or merge several reports with "svc evidence build"`,
          );
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});

describe('a report read from disk (FsReportReader.read, then the report checks)', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-property-report-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a report or a one-line error naming the file, for JSON cut short, with a byte changed, or not JSON at all', async () => {
    const reader = new FsReportReader();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(brokenText(SAMPLE_TEXT), async (text) => {
        const path = join(dir, `broken-${n++}.json`);
        writeFileSync(path, text);
        const outcome = await typedOutcome(async () => readNormalizedReport((await reader.read(path)).document, path), path);
        if (!outcome.ok) expect(['invalid-json', 'invalid-utf8', 'invalid-report']).toContain(outcome.error.code);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it('gives the same verdict for the text as parseJson and the report checks do in memory, with a BOM or indented', async () => {
    const reader = new FsReportReader();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mutations(2), fc.nat(), async (changes, style) => {
        const path = join(dir, `mutated-${n++}.json`);
        const document = mutate(SAMPLE, changes);
        writeFileSync(path, jsonText(document, style));
        const outcome = await typedOutcome(async () => readNormalizedReport((await reader.read(path)).document, path), path);
        const inMemory = typedResult(() => readNormalizedReport(asJson(document), FILE), FILE);
        expect(outcome.ok ? 'accepted' : outcome.error.message.replace(path, FILE)).toBe(inMemory.ok ? 'accepted' : inMemory.error.message);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});

describe('parseJson on any text', () => {
  it('parses or says where, in one line naming the file', () => {
    fc.assert(
      fc.property(fc.oneof(brokenText(SAMPLE_TEXT), fc.string({ unit: 'grapheme', maxLength: 50 })), (text) => {
        const outcome = typedResult(() => parseJson(String(text), FILE), FILE);
        if (!outcome.ok) expect(outcome.error.message).toMatch(/^reports\/in\.json: invalid JSON at line \d+, column \d+: /);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('a mutated report or evidence bundle loaded as a run (RunLoader.load)', () => {
  it('loads or fails with a typed one-line error naming the input', async () => {
    const d = doubles({ '/in/report.json': SAMPLE });
    await new BuildEvidenceBundle(d.reader, d.scans, d.catalogs, d.writer, d.hashing, d.settings).execute({
      inputs: ['/in/report.json'],
      out: '/in/evidence-bundle.json',
    });
    const bundle: unknown = JSON.parse(d.writer.files.get('/in/evidence-bundle.json') ?? '');
    const loader = new RunLoader(d.reader, d.scans, d.catalogs, d.hashing, d.clock, d.settings);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.boolean(), mutations(2), async (useBundle, changes) => {
        const path = `/in/mutated-${n++}.json`;
        d.reader.put(path, mutate(useBundle ? bundle : SAMPLE, changes));
        await typedOutcome(() => loader.load({ input: path }), path);
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});
