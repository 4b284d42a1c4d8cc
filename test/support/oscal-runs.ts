import { assess } from '../../src/domain/assessment/assessment';
import { DEFAULT_GOVERNANCE_POLICY } from '../../src/domain/governance/governance-policy';
import { merkleRoot } from '../../src/domain/evidence/merkle';
import { SVC_UUID_NAMESPACE, type OscalRun } from '../../src/domain/oscal/oscal-run';
import type { KsiResult } from '../../src/domain/ksi/ksi-result';
import { entryHashes } from '../../src/application/shared/run-inputs';
import { builtInCatalog } from '../fakes/fixed-catalog-source';
import { DeterministicUuids } from '../fakes/deterministic-uuids';
import { PureJsHashing } from '../fakes/pure-js-hashing';

export const INPUT_SHA = 'ab'.repeat(32);

/** An OscalRun of `results` against the built-in catalog, as OscalRunLoader gives it for a ScubaGear report. */
export function anOscalRun(results: KsiResult[], overrides: Partial<OscalRun> = {}): OscalRun {
  const hashing = new PureJsHashing();
  const uuids = new DeterministicUuids();
  const catalog = builtInCatalog();
  const assessment = assess(results, catalog, DEFAULT_GOVERNANCE_POLICY);
  const hashes = entryHashes(assessment, hashing);
  return {
    tool: { name: 'svc', version: '0.5.0' },
    generatedAt: '2026-01-01T00:00:00Z',
    oscalVersion: '1.1.3',
    context: {
      input: { name: 'sample.json', sha256: INPUT_SHA },
      source: { tool: 'ScubaGear', version: '1.5.0', tenant: 'contoso.onmicrosoft.com' },
      generatedAt: '2025-12-31T12:00:00Z',
      runAt: new Date('2026-01-01T00:00:00Z'),
    },
    results: assessment.items.map((item, i) => ({ item, hash: hashes[i] })),
    merkleRoot: merkleRoot(hashes, hashing),
    catalog,
    entriesFile: 'sample.json',
    files: [{ name: 'sample.json', sha256: INPUT_SHA, mediaType: 'application/json', description: 'The normalized report.' }],
    uuid: (key) => uuids.v5(SVC_UUID_NAMESPACE, key),
    ...overrides,
  };
}
