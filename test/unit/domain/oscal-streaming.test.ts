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
 * (what `ir generate-sar` writes), first recorded from the builders as they were before their lists became LazyArrays
 * (commit c67d818, which built every list as an array): the streamed documents are byte for byte the same. Recorded
 * again when what the documents are about got per-subject uuids and the Merkle root moved to metadata (issue 35).
 */
const BEFORE_STREAMING: Record<string, { pretty: string; canonical: string }> = {
  'sample ssp': {
    pretty: '2985af9d5019de806dcb6016a6f679d4e505826db80fe8725508b163f2aa19b3',
    canonical: '6774eb216c87ff8e56cfdba388a7025ee761267f18707f657cd8497810ac702b',
  },
  'sample sar': {
    pretty: '0d8fd010d4a1dce54a0af20cc23af36c4a02ad203cb4f5ce843660ce5e8c490b',
    canonical: '60b706f441608e700af576de6622945f3a2498f10103d8e06792abc1f63521ca',
  },
  'sample sap': {
    pretty: '564b6993b2aa44a7fafa02f1b259e11c2a5507bab0a1f260a26067365a32ff8c',
    canonical: 'cbb438a8ff258e99a4f1544b18d7b9b5d5b00178883f0472ee74e04af9e7c0c6',
  },
  'sample poam': {
    pretty: 'f3ac7dccd582b6d2f3a382e67062af585e328144f42e6c3319ade6b6f447d828',
    canonical: '41be12595eddd60c3fd7759e028fb2207ec0f0a0eae7046497945b5255ea150d',
  },
  'generated-2000 ssp': {
    pretty: '3d1540c07b28f9f26ea8af52789176f1abb7c54b8f59e3b1fad594b0b4d7b22d',
    canonical: 'bda8e48be448359c1af146685c0d98dbc49cda664a6f2a4c215f55e4a39eb3ea',
  },
  'generated-2000 sar': {
    pretty: 'ff9d30af432db7475a674b7e32f0e7e621e5a178cedafa7208b82102bb2bfa4c',
    canonical: '2433e82f2c78fc0e64676bc6df1a646784dd461dc989ac1f4d96eb180ee5e3ed',
  },
  'generated-2000 sap': {
    pretty: '564d140cd1948ca278ef2ba7db3b484ceb96bfe7a1abfdba3f457fee804f1e66',
    canonical: '5cd28564e593abeb51ff14a81fc7ab6b38b898d47414aa36ed7ffbabb04eff34',
  },
  'generated-2000 poam': {
    pretty: '421d71ac6ef80d7cc35cba71196ad53838bc05007a3827dff28976a34b723a9a',
    canonical: '8dfb6d3e463e14a6bb5ed3fb04ab7879f3871140d2ebe09f16ecc7219e8ec9d7',
  },
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
    const lazy = (document: Json) =>
      arrays(document, '$', [])
        .filter(([, n]) => n === -1)
        .map(([p]) => p);
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
