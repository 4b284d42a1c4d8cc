import { createHash, generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, svc } from '../support/run-svc';

// Issue 16, "the doorstep": a file svc never wrote is exit 3, not an integrity alarm; a SAR signed by another key
// says so; an input error prints nothing to stdout before its one Error: line.

const REPORT = join(FIXTURES, 'sample-baseline.json');
const CHECKS = 'ir validate checks an auditor bundle directory, an evidence-bundle.json, or a SAR signed by svc ir generate-sar';
const BUNDLE_HINT = 'pass an auditor bundle directory written by svc ir auditor-bundle';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-honest-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function at(name: string): string {
  return join(tmp, name);
}

function file(name: string, content: string | Buffer): string {
  writeFileSync(at(name), content);
  return at(name);
}

/** Deterministic bytes (mulberry32), so the "random" file is the same on every run. */
function seededBytes(seed: number, length: number): Buffer {
  let state = seed >>> 0;
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    bytes[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return bytes;
}

/** A fresh P-256 signing key (PEM), so no test leans on the development key under the svc home. */
function newKey(name: string): string {
  return file(`${name}.pem`, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
}

function sha256(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

describe('svc ir validate on something svc never wrote: exit 3, not an svc artifact', () => {
  it.each<[string, () => string, (path: string) => string]>([
    ['an empty file', () => file('empty.json', ''), () => 'empty file'],
    ['a file of whitespace', () => file('blank.json', ' \n\t\n'), () => 'only whitespace, not JSON'],
    ['a file that is not JSON', () => file('notes.txt', 'hello, auditor\n'), () => "not JSON (Unexpected token 'h')"],
    ['random bytes', () => file('random.bin', seededBytes(16, 512)), () => 'binary data, not JSON'],
    [
      "a JSON object that is not svc's",
      () => file('package.json', '{"name":"left-pad","version":"1.3.0"}\n'),
      (p) => `JSON without svc's "schema" and no signature envelope (${p}.dsse.json) beside it`,
    ],
    ['a JSON array', () => file('list.json', '[1,2,3]'), (p) => `JSON without svc's "schema" and no signature envelope (${p}.dsse.json) beside it`],
  ])('%s', (_what, make, why) => {
    const path = make();
    expect(svc(['ir', 'validate', path])).toEqual({ status: 3, stdout: '', stderr: `Error: not an svc artifact: ${path}: ${why(path)}; ${CHECKS}\n` });
  });

  it('a directory without manifest.json', () => {
    const dir = at('photos');
    mkdirSync(dir);
    writeFileSync(join(dir, 'cat.jpg'), seededBytes(7, 64));
    expect(svc(['ir', 'validate', dir])).toEqual({ status: 3, stdout: '', stderr: `Error: not an svc artifact: ${dir}: no manifest.json; ${BUNDLE_HINT}\n` });
  });

  it("a directory whose manifest.json is not svc's (a web app manifest), and one whose manifest.json is not JSON", () => {
    const web = at('web-app');
    mkdirSync(web);
    writeFileSync(join(web, 'manifest.json'), '{"name":"My PWA","start_url":"/"}');
    expect(svc(['ir', 'validate', web])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: not an svc artifact: ${web}: its manifest.json is not svc's: no "schema": "svc.manifest/v1"; ${BUNDLE_HINT}\n`,
    });
    const text = at('text-manifest');
    mkdirSync(text);
    writeFileSync(join(text, 'manifest.json'), 'CACHE MANIFEST\n');
    expect(svc(['ir', 'validate', text])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: not an svc artifact: ${text}: its manifest.json is not svc's: not JSON (Unexpected token 'C'); ${BUNDLE_HINT}\n`,
    });
  });

  it('an svc document ir validate does not check on its own: exit 3 not-validatable, naming what to pass', () => {
    const snapshot = at('snapshot.json');
    expect(svc(['substrate', 'walk', join(FIXTURES, 'substrate', 'tree-a'), '--out', snapshot]).status).toBe(0);
    expect(svc(['ir', 'validate', snapshot])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${snapshot}: an svc document (svc.substrate-snapshot/v1) that ir validate does not check; ${CHECKS}\n`,
    });
  });
});

describe("svc ir validate on svc's own artifacts, changed: still exit 4", () => {
  let bundle: string;
  beforeAll(() => {
    bundle = at('bundle');
    expect(svc(['ir', 'auditor-bundle', REPORT, '--out-dir', bundle]).status).toBe(0);
  });

  function copyOf(name: string): string {
    const copy = at(name);
    cpSync(bundle, copy, { recursive: true });
    return copy;
  }

  it('a bundle with one byte of evidence-bundle.json changed, whether the directory or the file is given', () => {
    const copy = copyOf('bundle-one-byte');
    const evidence = join(copy, 'evidence-bundle.json');
    const bytes = readFileSync(evidence);
    bytes[0] = 'x'.charCodeAt(0); // `{` becomes `x`: no longer JSON, and no longer what the manifest records
    writeFileSync(evidence, bytes);
    const recorded = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')).files['evidence-bundle.json'].sha256;
    const expected = {
      status: 4,
      stdout: '',
      stderr: `Error: evidence-bundle.json: sha256 is ${sha256(bytes)}, manifest.json records ${recorded}; the bundle was changed after manifest.json was written\n`,
    };
    expect(svc(['ir', 'validate', copy])).toEqual(expected);
    expect(svc(['ir', 'validate', evidence])).toEqual(expected);
  });

  it('a bundle whose manifest.json was overwritten with something that is not JSON', () => {
    const copy = copyOf('bundle-bad-manifest');
    writeFileSync(join(copy, 'manifest.json'), 'garbage\n');
    expect(svc(['ir', 'validate', copy])).toEqual({
      status: 4,
      stdout: '',
      stderr: `Error: ${join(copy, 'manifest.json')}: no longer valid JSON (Unexpected token 'g'); it was changed after svc wrote it\n`,
    });
  });

  it('an unchanged file of a bundle names the bundle to pass (exit 3)', () => {
    const poam = join(bundle, 'poam.json');
    expect(svc(['ir', 'validate', poam])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${poam}: one file of the auditor bundle ${bundle}, which verifies; ir validate checks a bundle as a whole: pass ${bundle}\n`,
    });
  });

  it("a signed SAR emptied after signing: its envelope beside it makes it svc's", () => {
    const sar = at('emptied-sar.json');
    expect(svc(['ir', 'generate-sar', REPORT, '--out', sar, '--key', newKey('emptied-key')]).status).toBe(0);
    writeFileSync(sar, '');
    expect(svc(['ir', 'validate', sar])).toEqual({
      status: 4,
      stdout: '',
      stderr: `Error: ${sar}: no longer valid JSON (Unexpected end of JSON input); it was changed after svc wrote it\n`,
    });
  });
});

describe('svc ir validate --keyid against a SAR signed by another key', () => {
  it('names both keys, exit 4, and says nothing of a change', () => {
    const keyOf = (name: string): { pem: string; keyid: string } => {
      const pem = newKey(name);
      mkdirSync(at(name));
      const signed = svc(['ir', 'generate-sar', REPORT, '--out', join(at(name), 'sar.json'), '--key', pem]);
      expect(signed.status).toBe(0);
      const keyid = /\(ES256, key ([A-Za-z0-9_-]{43})\)\n$/.exec(signed.stdout)?.[1];
      expect(keyid).toBeDefined();
      return { pem, keyid: keyid as string };
    };
    const a = keyOf('key-a');
    const b = keyOf('key-b');
    expect(a.keyid).not.toBe(b.keyid);
    const sar = join(at('key-a'), 'sar.json');
    expect(svc(['ir', 'validate', sar, '--keyid', b.keyid])).toEqual({
      status: 4,
      stdout: '',
      stderr: `Error: ${sar}: signed by key ${a.keyid}, not by --keyid ${b.keyid}\n`,
    });
    expect(svc(['ir', 'validate', sar, '--keyid', a.keyid]).status).toBe(0);
  });
});

describe('no progress line before an input error: stdout empty, one Error: line', () => {
  const notJson = () => file('not-json.json', '{"results": [\n  {"ksi_id": "KSI-AC-02",, "status": "PASS"}\n]}\n');
  const INVALID = 'invalid JSON at line 2, column 26: Expected double-quoted property name; fix the syntax there (a JSON validator shows the context)';

  it.each<[string, (input: string) => string[]]>([
    ['ir baseline-transform', (input) => ['ir', 'baseline-transform', input]],
    ['ir auditor-bundle', (input) => ['ir', 'auditor-bundle', input, '--out-dir', at('never-written')]],
  ])('%s: a missing input file and an invalid-JSON input', (_command, args) => {
    const missing = at('missing.json');
    expect(svc(args(missing))).toEqual({ status: 3, stdout: '', stderr: `Error: ${missing}: no such input file; check the path\n` });
    const invalid = notJson();
    expect(svc(args(invalid))).toEqual({ status: 3, stdout: '', stderr: `Error: ${invalid}: ${INVALID}\n` });
    expect(existsSync(at('never-written'))).toBe(false);
  });

  it('substrate walk: a missing directory, a file given as the tree, and a tree holding invalid JSON', () => {
    const missing = at('no-tree');
    expect(svc(['substrate', 'walk', missing])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${missing}: no such directory; pass the configuration directory to walk\n`,
    });
    const invalid = notJson();
    expect(svc(['substrate', 'walk', invalid])).toEqual({
      status: 3,
      stdout: '',
      stderr: `Error: ${invalid}: is a file, expected a directory; pass the directory that holds it\n`,
    });
    const tree = at('tree-with-bad-json');
    mkdirSync(tree);
    writeFileSync(join(tree, 'settings.json'), readFileSync(invalid));
    expect(svc(['substrate', 'walk', tree])).toEqual({ status: 3, stdout: '', stderr: `Error: ${join(tree, 'settings.json')}: ${INVALID}\n` });
  });
});
