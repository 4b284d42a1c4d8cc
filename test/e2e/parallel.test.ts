import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { svc } from '../support/run-svc';

const { generate } = require('../../scripts/bench/generate-report.js') as { generate: (n: number, file: string, variant?: string) => number };

const ONE_PIECE = { SVC_SPLIT_MIN_BYTES: String(2 ** 40) };
const IN_PARTS = { SVC_SPLIT_MIN_BYTES: '0' };

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-parallel-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Each file's SHA-256 (comparing megabytes of Buffers with toEqual takes jest minutes). */
const files = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir).map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );

describe('a report read in parts on worker threads', () => {
  it('gives byte for byte the bundle a one-piece read gives', () => {
    const input = join(tmp, 'sorted.json');
    generate(3000, input);
    const [a, b] = [join(tmp, 'one'), join(tmp, 'parts')];
    const one = svc(['ir', 'auditor-bundle', input, '--out-dir', a], { env: ONE_PIECE });
    const parts = svc(['ir', 'auditor-bundle', input, '--out-dir', b], { env: IN_PARTS });
    expect(parts).toEqual({ ...one, stdout: one.stdout.replace(a, b) });
    expect(files(b)).toEqual(files(a));
    expect(readdirSync(b)).not.toContain('.scratch');
  });

  it('reads a bare array in parts as well', () => {
    const input = join(tmp, 'bare.json');
    writeFileSync(input, JSON.stringify(JSON.parse(readFileSync(join(tmp, 'sorted.json'), 'utf8')).results));
    const [a, b] = [join(tmp, 'bare-one'), join(tmp, 'bare-parts')];
    svc(['ir', 'auditor-bundle', input, '--out-dir', a], { env: ONE_PIECE });
    svc(['ir', 'auditor-bundle', input, '--out-dir', b], { env: IN_PARTS });
    expect(files(b)).toEqual(files(a));
  });

  it('falls back to a one-piece read for an unsorted report', () => {
    const [a, b] = [join(tmp, 'sample-one'), join(tmp, 'sample-parts')];
    svc(['ir', 'auditor-bundle', 'fixtures/sample-baseline.json', '--out-dir', a], { env: ONE_PIECE });
    expect(svc(['ir', 'auditor-bundle', 'fixtures/sample-baseline.json', '--out-dir', b], { env: IN_PARTS }).status).toBe(0);
    expect(files(b)).toEqual(files(a));
  });

  it('reports an error in the second half exactly as a one-piece read does, and writes nothing', () => {
    const doc = JSON.parse(readFileSync(join(tmp, 'sorted.json'), 'utf8'));
    doc.results[2500].status = 'ok';
    const input = join(tmp, 'bad.json');
    writeFileSync(input, JSON.stringify(doc));
    const one = svc(['ir', 'auditor-bundle', input, '--out-dir', join(tmp, 'bad-one')], { env: ONE_PIECE });
    const parts = svc(['ir', 'auditor-bundle', input, '--out-dir', join(tmp, 'bad-parts')], { env: IN_PARTS });
    expect(one.stderr).toBe(`Error: ${input}: results[2500].status: "ok" is not a status; use exactly PASS, WARN or FAIL (upper case)\n`);
    expect(parts).toEqual(one);
    expect(readdirSync(tmp).filter((f) => f.startsWith('bad-'))).toEqual([]);
  });

  it('refuses a report that is not UTF-8 (a Latin-1 byte in the second half) exactly as a one-piece read does, naming the byte and line', () => {
    const text = readFileSync(join(tmp, 'sorted.json'), 'utf8');
    const at = text.indexOf('\n', Math.floor(text.length * 0.8)) + 1;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at), 'utf8'), Buffer.from([0xe9]), Buffer.from(text.slice(at), 'utf8')]);
    const input = join(tmp, 'latin1.json');
    writeFileSync(input, bytes);
    const line = text.slice(0, at).split('\n').length;
    const parts = svc(['ir', 'auditor-bundle', input, '--out-dir', join(tmp, 'latin1')], { env: IN_PARTS });
    expect(parts).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${input}: not UTF-8 text: byte ${Buffer.byteLength(text.slice(0, at))} (line ${line}), 0xE9, is not part of a UTF-8 character; save the file as UTF-8\n`,
    });
    expect(parts).toEqual(svc(['ir', 'auditor-bundle', input, '--out-dir', join(tmp, 'latin1')], { env: ONE_PIECE }));
  });

  it('reports invalid JSON in the second half with its line and column', () => {
    const text = readFileSync(join(tmp, 'sorted.json'), 'utf8').split('\n');
    text[2900] = text[2900].replace('"status":', '"status"');
    const input = join(tmp, 'broken.json');
    writeFileSync(input, text.join('\n'));
    const parts = svc(['ir', 'auditor-bundle', input, '--out-dir', join(tmp, 'broken')], { env: IN_PARTS });
    expect(parts.status).toBe(3);
    expect(parts.stderr).toMatch(new RegExp(`^Error: ${input}: invalid JSON at line 2901, column \\d+: `));
    expect(parts).toEqual(svc(['ir', 'auditor-bundle', input, '--out-dir', join(tmp, 'broken')], { env: ONE_PIECE }));
  });
});
