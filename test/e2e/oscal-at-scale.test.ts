import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeCryptoHashing } from '../../src/infrastructure/hashing/node-crypto-hashing';
import { verifyDsseEnvelope } from '../support/dsse-verifier';
import { REFERENCE, svc } from '../support/run-svc';

const { generate } = require('../../scripts/bench/generate-report.js') as { generate: (n: number, file: string, variant?: string) => number };

const SCHEMAS = join(REFERENCE, 'oscal', 'schemas');
const RESULTS = 20_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Issue 15: the documents of a large run are written chunk by chunk (their growing lists are LazyArrays). The bytes
 * must be what serializing the whole document at once gives, and the documents must stay valid and signed.
 */
describe(`OSCAL documents of a ${RESULTS.toLocaleString('en')}-result run`, () => {
  let tmp: string;
  let report: string;
  let env: NodeJS.ProcessEnv;
  const at = (name: string) => join(tmp, name);
  const run = (args: string[]) => svc(args, { env });
  // FAIL and WARN: the generator gives statuses PASS, PASS, WARN, FAIL in turn.
  const open = Array.from({ length: RESULTS }, (_, i) => (i * 7) % 4 >= 2).filter(Boolean).length;

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'svc-oscal-scale-'));
    env = { SVC_CACHE_DIR: at('cache'), SVC_HOME: at('home') };
    report = at('report.json');
    generate(RESULTS, report);
    execFileSync('openssl', ['genpkey', '-algorithm', 'ED25519', '-out', at('ed25519.pem')], { stdio: 'pipe' });
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each([
    [
      'sar',
      'assessment-results',
      (body: any) => [body.results[0].observations.length, body.results[0].findings.length, body.results[0].risks.length, body['back-matter'].resources.length],
      [RESULTS, RESULTS, open, RESULTS + 2],
    ],
    [
      'poam',
      'plan-of-action-and-milestones',
      (body: any) => [body.observations.length, body.risks.length, body['poam-items'].length, body['back-matter'].resources.length],
      [open, open, open, RESULTS + 2],
    ],
  ] as const)('oscal generate --model %s: the bytes of the whole document serialized at once, and valid', (model, root, counts, expected) => {
    const out = at(`${model}.json`);
    const result = run(['oscal', 'generate', report, '--model', model, '--out', out]);
    expect([result.status, result.stderr]).toEqual([0, '']);
    const text = readFileSync(out, 'utf8');
    const document = JSON.parse(text);
    // Compared by digest: a failing comparison of two 100 MB strings would print both.
    expect(sha256(text)).toBe(sha256(`${JSON.stringify(document, null, 2)}\n`));
    expect(counts(document[root])).toEqual(expected);
    const validated = run(['oscal', 'validate', out, '--schemas', SCHEMAS]);
    expect([validated.status, validated.stderr]).toEqual([0, '']);
    expect(validated.stdout).toBe(`${out}: OSCAL 1.1.3 ${root}, judged by the 1.1.3 schemas\nValid\n`);
  });

  it('ir generate-sar: the canonical form of the same SAR, its digest signed, and ir validate accepts it', () => {
    const out = at('signed-sar.json');
    const result = run(['ir', 'generate-sar', report, '--out', out, '--key', at('ed25519.pem')]);
    expect([result.status, result.stderr]).toEqual([0, '']);
    const canonical = readFileSync(out, 'utf8');
    // The SAR oscal generate wrote (above; written again when this test runs alone).
    if (!existsSync(at('sar.json'))) expect(run(['oscal', 'generate', report, '--model', 'sar', '--out', at('sar.json')]).status).toBe(0);
    const pretty = JSON.parse(readFileSync(at('sar.json'), 'utf8'));
    expect(sha256(canonical)).toBe(sha256(new NodeCryptoHashing().canonicalize(pretty)));
    const statement = JSON.parse(verifyDsseEnvelope(readFileSync(`${out}.dsse.json`, 'utf8')).payload.toString('utf8'));
    expect(statement.subject).toEqual([{ name: 'signed-sar.json', digest: { sha256: sha256(canonical) } }]);
    expect(statement.predicate.document).toEqual({
      uuid: pretty['assessment-results'].uuid,
      'oscal-version': '1.1.3',
      'last-modified': pretty['assessment-results'].metadata['last-modified'],
    });
    expect(statement.predicate.evidence).toHaveLength(RESULTS + 1);
    const validated = svc(['ir', 'validate', out], { env: { ...env, SVC_OSCAL_SCHEMAS: SCHEMAS } });
    expect([validated.status, validated.stderr]).toEqual([0, '']);
    expect(validated.stdout).toMatch(new RegExp(`^SAR ${out} verified\\nDigest: sha256:${sha256(canonical)}\\n[^]*\\nValid\\n$`));
  });
});
