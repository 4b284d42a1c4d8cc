import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc } from '../support/run-svc';

const SAMPLE = 'fixtures/sample-baseline.json';
const SAMPLE_SHA256 = 'sha256:b8b7d4941762ae257015f68359c527947707be8281e3738bc85f1bc48cd25473';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-generate-hdf-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const at = (...parts: string[]) => join(tmp, ...parts);
const sha256 = (file: string) => `sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`;
const controls = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { profiles: { controls: { id: string; results: unknown[] }[] }[] }).profiles[0].controls;

describe('svc generate hdf', () => {
  it('writes the document and prints where, its SHA-256 and the control counts', () => {
    const out = at('run.hdf.json');
    const run = svc(['generate', 'hdf', SAMPLE, '--out', out]);
    expect(run).toEqual({ stdout: `HDF results written to ${out} (${sha256(out)})\nControls: 5 (passed 2, failed 3, unmapped 1)\n`, stderr: '', status: 0 });
    const document = JSON.parse(readFileSync(out, 'utf8'));
    expect(document).toMatchObject({
      platform: { name: 'svc', release: '0.5.0' },
      version: '0.5.0',
      passthrough: { auxiliary_data: [{ name: 'svc', data: { input: { name: 'sample-baseline.json', sha256: SAMPLE_SHA256 } } }] },
    });
    expect(controls(out).map((c) => c.id)).toEqual(['KSI-AC-02', 'KSI-AU-02', 'KSI-CNA-01', 'KSI-IA-02', 'KSI-SC-08']);
    // Under SOURCE_DATE_EPOCH (run-svc sets it) the same input gives the same bytes.
    svc(['generate', 'hdf', SAMPLE, '--out', at('again.hdf.json')]);
    expect(readFileSync(at('again.hdf.json')).equals(readFileSync(out))).toBe(true);
  });

  it('prints one JSON object under --json: the file with its sha256:<hex> digest and the counts', () => {
    const out = at('json.hdf.json');
    const run = svc(['generate', 'hdf', SAMPLE, '--out', out, '--json']);
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toEqual({
      input: SAMPLE,
      out,
      file: { name: 'json.hdf.json', sha256: sha256(out), bytes: readFileSync(out).length },
      controls: 5,
      passed: 2,
      failed: 3,
      unmapped: 1,
    });
  });

  it('writes the same controls from the auditor bundle of the same run, and svc adapter run hdf reads back its statuses', () => {
    expect(svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', at('bundle')]).status).toBe(0);
    const fromBundle = at('bundle.hdf.json');
    expect(svc(['generate', 'hdf', at('bundle'), '--out', fromBundle])).toMatchObject({ status: 0, stderr: '' });
    expect(controls(fromBundle)).toEqual(controls(at('run.hdf.json')));
    const back = svc(['adapter', 'run', 'hdf', fromBundle]);
    expect([back.status, back.stderr]).toEqual([0, '']);
    const report = JSON.parse(back.stdout) as {
      source: { tool: string; adapter: string };
      results: { ksi_id: string; status: string }[];
      summary: { unmapped_checks: string[] };
    };
    expect(report.source).toMatchObject({ tool: 'svc', adapter: 'svc-adapter-hdf' });
    const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as { results: { ksi_id: string; status: string }[] };
    expect(report.results.map((r) => [r.ksi_id, r.status])).toEqual(
      sample.results
        .filter((r) => r.ksi_id !== 'KSI-CNA-01')
        .map((r) => [r.ksi_id, r.status])
        .sort(),
    );
    expect(report.summary.unmapped_checks).toEqual(['KSI-CNA-01']);
  });
});

describe('svc generate hdf on bad input: one line naming the file, the exit code, nothing written', () => {
  const dir = () => at('bad');
  const left = () => readdirSync(dir()).sort();
  beforeAll(() => {
    mkdirSync(dir());
    writeFileSync(
      at('bad', 'status.json'),
      JSON.stringify({
        results: [
          { ksi_id: 'KSI-AC-02', status: 'PASS' },
          { ksi_id: 'KSI-AC-03', status: 'OK' },
        ],
      }),
    );
    writeFileSync(at('bad', 'cut.json'), readFileSync(SAMPLE, 'utf8').slice(0, 300));
    mkdirSync(at('bad', 'a-directory'));
  });

  it.each([
    ['a missing input', () => at('bad', 'nope.json'), 3, () => `Error: ${at('bad', 'nope.json')}: no such input file; check the path\n`],
    [
      'a wrong status',
      () => at('bad', 'status.json'),
      3,
      () => `Error: ${at('bad', 'status.json')}: results[1].status: "OK" is not a status; use exactly PASS, WARN or FAIL (upper case)\n`,
    ],
    [
      'invalid JSON',
      () => at('bad', 'cut.json'),
      3,
      () =>
        expect.stringMatching(
          new RegExp(
            `^Error: ${at('bad', 'cut.json')}: invalid JSON at line \\d+, column \\d+: .*; fix the syntax there \\(a JSON validator shows the context\\)\\n$`,
          ),
        ),
    ],
  ])('%s', (_name, input, status, stderr) => {
    const before = left();
    expect(svc(['generate', 'hdf', input(), '--out', at('bad', 'out.hdf.json')])).toEqual({ stdout: '', stderr: stderr(), status });
    expect(existsSync(at('bad', 'out.hdf.json'))).toBe(false);
    expect(left()).toEqual(before);
  });

  it('an --out that is a directory (3), a missing --out (2), and the same under --json', () => {
    expect(svc(['generate', 'hdf', SAMPLE, '--out', at('bad', 'a-directory')])).toEqual({
      stdout: '',
      stderr: `Error: ${at('bad', 'a-directory')}: is a directory, expected a file path; name the file to write\n`,
      status: 3,
    });
    expect(svc(['generate', 'hdf', SAMPLE])).toMatchObject({ stdout: '', stderr: expect.stringMatching(/^Error: .*Missing required flag out/s), status: 2 });
    const json = svc(['generate', 'hdf', at('bad', 'status.json'), '--out', at('bad', 'out.hdf.json'), '--json']);
    expect(json.status).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'invalid-report',
        exit: 3,
        message: `${at('bad', 'status.json')}: results[1].status: "OK" is not a status; use exactly PASS, WARN or FAIL (upper case)`,
      },
    });
    expect(existsSync(at('bad', 'out.hdf.json'))).toBe(false);
  });

  it('a bundle whose evidence does not match its hashes (4)', () => {
    expect(svc(['ir', 'auditor-bundle', SAMPLE, '--out-dir', at('bad', 'bundle')]).status).toBe(0);
    const file = at('bad', 'bundle', 'evidence-bundle.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"status":"FAIL"', '"status":"PASS"'));
    const run = svc(['generate', 'hdf', at('bad', 'bundle'), '--out', at('bad', 'tampered.hdf.json')]);
    expect(run).toMatchObject({ stdout: '', status: 4, stderr: expect.stringMatching(/^Error: [^\n]+\n$/) });
    expect(existsSync(at('bad', 'tampered.hdf.json'))).toBe(false);
  });
});
