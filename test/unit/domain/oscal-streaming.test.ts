import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonChunks, LazyArray, materialize } from '../../../src/domain/encoding/json-chunks';
import { buildSap } from '../../../src/domain/oscal/assessment-plan';
import { buildSar } from '../../../src/domain/oscal/assessment-results';
import type { Json, OscalRun } from '../../../src/domain/oscal/oscal-run';
import { buildOscalPoam } from '../../../src/domain/oscal/plan-of-action-and-milestones';
import { buildSsp } from '../../../src/domain/oscal/system-security-plan';
import type { KsiResult } from '../../../src/domain/ksi/ksi-result';
import { NodeCryptoHashing } from '../../../src/infrastructure/hashing/node-crypto-hashing';
import { sampleResults } from '../../support/builders';
import { anOscalRun } from '../../support/oscal-runs';

const { generate } = require('../../../scripts/bench/generate-report.js') as { generate: (n: number, file: string, variant?: string) => number };

const BUILDERS: Record<string, (run: OscalRun) => Json> = { ssp: buildSsp, sar: buildSar, sap: buildSap, poam: buildOscalPoam };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hashing = new NodeCryptoHashing();
const joined = (document: Json, form: 'pretty' | 'canonical') => [...jsonChunks(document, form)].join('');

/** The bench generator's report of n results (every catalog KSI, then unmapped ids; PASS, WARN and FAIL). */
function generated(n: number): KsiResult[] {
  const dir = mkdtempSync(join(tmpdir(), 'svc-oscal-stream-'));
  try {
    generate(n, join(dir, 'r.json'));
    return JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * SHA-256 of `JSON.stringify(document, null, 2) + "\n"` (what `oscal generate` writes) and of the RFC 8785 form
 * (what `ir generate-sar` writes), recorded from the builders as they were before their lists became LazyArrays
 * (commit c67d818, which built every list as an array): the streamed documents are byte for byte the same.
 */
const BEFORE_STREAMING: Record<string, { pretty: string; canonical: string }> = {
  'sample ssp': { pretty: '91a7fd02c23fc40b674aab2ce83954f57b43d074a49483f1da6915a3819c720e', canonical: 'e88cc39cea56398a4360620a4609bf023ea1879066bc93e2302e1c24b223c09b' },
  'sample sar': { pretty: '202126bc827b714e5fd142a06b34e7c1f506d59037f1cbcf4642416b696264f9', canonical: '0e05caaaa2931ed265694432d5e2d3e1e626a4992f4b9358820837710441e959' },
  'sample sap': { pretty: 'e368015fefd55606154b66a2ad58c75964986af2c02b9bc2ff59da488209f365', canonical: '11f6af020e1fed1f24f9d8e803ce3e6a16dce8f0ae79706fa0eed2c63526ea0f' },
  'sample poam': { pretty: '1d1514fb6e9cce04155db9125be85a683b31c7fef8683fe79aa2f41ebc650d9f', canonical: '8ce4666d3e8d0d57205ac664404a7b9d6572040efbaa8bda410998608f21a9ea' },
  'generated-2000 ssp': { pretty: 'e4a8b93d6655c15ca8bc6702b8049ccb06806f1b407b68bd99300225ba1ee804', canonical: '9ccf4a38f048f08bb444c873b26d9c378408f46d5f6bf51aaa7488a05337ceb5' },
  'generated-2000 sar': { pretty: 'c7d135161fd63d3386f9e32323b67902ac7fad7497a7fa283be2cdd1ad7ef3d6', canonical: '97c9198d64b04a7c0a14d4b2f30ec43c640686620f54c2ca98a5c032c0de583c' },
  'generated-2000 sap': { pretty: 'f25d1341c07c1a4dd0df657b1ba8bebc0763d3dc0fffbc085c3854e1f0faf3e6', canonical: '40a3a7e9b9d07f843c6a62cfe7dcf2d67fe911ff54ff2427e1d15d893a520925' },
  'generated-2000 poam': { pretty: '9ce6a3923fbe3008b76f52c5168acdc4d5504676e0b0568db0912a01c54b287d', canonical: '00681aa79d4e19f30c2971af772abb2450c9e894a3bbbfe883a22c97fbe99d1f' },
};

describe('OSCAL documents written as chunks', () => {
  const runs: [string, () => OscalRun][] = [
    ['sample', () => anOscalRun(sampleResults())],
    ['generated-2000', () => anOscalRun(generated(2000))],
  ];

  describe.each(runs)('of the %s run', (label, makeRun) => {
    let run: OscalRun;
    beforeAll(() => {
      run = makeRun();
    });

    it.each(Object.keys(BUILDERS))('%s: the chunks are the bytes of the materialized document, and of the document before streaming', (model) => {
      const document = BUILDERS[model](run);
      const materialized = materialize(document);
      const pretty = `${joined(document, 'pretty')}\n`;
      const canonical = joined(document, 'canonical');
      expect(pretty).toBe(`${JSON.stringify(materialized, null, 2)}\n`);
      expect(canonical).toBe(hashing.canonicalize(materialized));
      expect({ pretty: sha256(pretty), canonical: sha256(canonical) }).toEqual(BEFORE_STREAMING[`${label} ${model}`]);
    });
  });

  it('holds every list that grows with the run as a LazyArray, and nothing else of that size', () => {
    const run = anOscalRun(generated(2000));
    const arrays = (value: unknown, path: string, found: [string, number][]): [string, number][] => {
      if (value instanceof LazyArray) found.push([path, -1]);
      else if (Array.isArray(value)) {
        found.push([path, value.length]);
        value.forEach((v, i) => arrays(v, `${path}[${i}]`, found));
      } else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) arrays(v, `${path}.${k}`, found);
      return found;
    };
    const lazy = (document: Json) => arrays(document, '$', []).filter(([, n]) => n === -1).map(([p]) => p);
    // The SSP's implemented requirements are one per control the catalog's KSIs touch: bounded by the catalog, not the run.
    const largest = (document: Json) => Math.max(...arrays(document, '$', []).map(([, n]) => n));
    expect(lazy(buildSar(run))).toEqual([
      '$.assessment-results.results[0].observations',
      '$.assessment-results.results[0].risks',
      '$.assessment-results.results[0].findings',
      '$.assessment-results.back-matter.resources',
    ]);
    expect(lazy(buildOscalPoam(run))).toEqual([
      '$.plan-of-action-and-milestones.observations',
      '$.plan-of-action-and-milestones.risks',
      '$.plan-of-action-and-milestones.poam-items',
      '$.plan-of-action-and-milestones.back-matter.resources',
    ]);
    expect(lazy(buildSsp(run))).toEqual(['$.system-security-plan.back-matter.resources']);
    expect(lazy(buildSap(run))).toEqual(['$.assessment-plan.back-matter.resources']);
    for (const build of Object.values(BUILDERS)) expect(largest(build(run))).toBeLessThan(run.results.length / 4);
  });
});
