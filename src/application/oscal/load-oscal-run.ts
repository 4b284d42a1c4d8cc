import { assess } from '../../domain/assessment/assessment';
import { EVIDENCE_BUNDLE_SCHEMA, readEvidenceBundle } from '../../domain/artifacts/evidence-bundle';
import { verifyEvidenceEntries } from '../../domain/artifacts/bundle-verification';
import type { RunContext } from '../../domain/artifacts/run-context';
import { merkleRoot } from '../../domain/evidence/merkle';
import { isPlainObject, readNormalizedReport, type KsiResult } from '../../domain/ksi/ksi-result';
import { DEFAULT_OSCAL_VERSION, SVC_UUID_NAMESPACE, type EvidenceFile, type OscalRun } from '../../domain/oscal/oscal-run';
import type { CatalogSource } from '../../ports/catalog-source';
import type { Clock } from '../../ports/clock';
import type { Hashing } from '../../ports/hashing';
import type { ReportReader } from '../../ports/report-reader';
import type { RunSettings } from '../../ports/run-settings';
import type { Uuids } from '../../ports/uuids';
import { chooseCatalog } from '../shared/load-report';
import { entryHashes } from '../shared/run-inputs';
import { verifyBundleDirectory } from './verify-bundle-directory';

export interface OscalRunPorts {
  reader: ReportReader;
  catalogs: CatalogSource;
  hashing: Hashing;
  uuids: Uuids;
  clock: Clock;
  settings: RunSettings;
}

export interface OscalRunRequest {
  /** A normalized report, an evidence-bundle.json, or an auditor bundle directory. */
  input: string;
  /** The `oscal-version` to declare (default 1.1.3). */
  oscalVersion?: string;
  /** A FedRAMP FRMR release whose official KSI ids the report may use (`--catalog`). */
  catalog?: string;
}

/**
 * Gathers what a generated OSCAL document says about a run. A bundle (directory or evidence-bundle.json) is
 * verified first, and its recorded content hashes are the evidence hashes the documents cite.
 */
export async function loadOscalRun(ports: OscalRunPorts, request: OscalRunRequest): Promise<OscalRun> {
  const { catalog, shape } = await chooseCatalog(ports.reader, ports.catalogs, request.catalog, ports.settings.governance.unmapped_owner);
  const runAt = ports.clock.now();
  let results: readonly KsiResult[];
  let hashes: string[] | undefined;
  let context: RunContext;
  let files: EvidenceFile[];
  let entriesFile: string;
  if ((await ports.reader.kind(request.input)) === 'directory') {
    const bundle = await verifyBundleDirectory(ports.reader, ports.hashing, request.input);
    results = readEvidenceBundle(bundle.evidence, bundle.evidenceFile).results;
    hashes = bundle.entries.hashes;
    context = { input: bundle.entries.input, runAt };
    files = bundle.files.map((f) => ({ name: f.name, sha256: f.sha256, mediaType: f.name.endsWith('.md') ? 'text/markdown' : 'application/json', description: BUNDLE_FILE_ROLES[f.name] ?? 'File of the auditor bundle.' }));
    entriesFile = 'evidence-bundle.json';
  } else {
    const file = await ports.reader.read(request.input);
    const ref = { name: file.name, sha256: file.sha256, mediaType: 'application/json' };
    entriesFile = file.name;
    if (isPlainObject(file.document) && file.document.schema === EVIDENCE_BUNDLE_SCHEMA) {
      const verified = verifyEvidenceEntries(file.document, file.path, ports.hashing);
      results = readEvidenceBundle(file.document, file.path).results;
      hashes = verified.hashes;
      context = { input: verified.input, runAt };
      files = [{ ...ref, description: BUNDLE_FILE_ROLES['evidence-bundle.json'] }];
    } else {
      const report = readNormalizedReport(file.document, file.path, shape);
      results = report.results;
      context = { input: { name: file.name, sha256: file.sha256 }, source: report.source, generatedAt: report.generated_at, runAt };
      files = [{ ...ref, description: 'The normalized report of KSI results the documents were generated from.' }];
    }
  }
  const assessment = assess(results, catalog, ports.settings.governance);
  const contentHashes = hashes ?? entryHashes(assessment, ports.hashing);
  return {
    tool: ports.settings.tool,
    generatedAt: runAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    oscalVersion: request.oscalVersion ?? DEFAULT_OSCAL_VERSION,
    context,
    results: assessment.items.map((item, i) => ({ item, hash: contentHashes[i] })),
    merkleRoot: merkleRoot(contentHashes, ports.hashing),
    catalog,
    entriesFile,
    files,
    uuid: (key) => ports.uuids.v5(SVC_UUID_NAMESPACE, key),
  };
}

const BUNDLE_FILE_ROLES: Record<string, string> = {
  'evidence-bundle.json': 'Canonical evidence entries with their content hashes and RFC 6962 Merkle root.',
  'governance-report.md': 'Governance actions per KSI, with severity, owner and SLA.',
  'lineage.json': 'KSI → control → evidence → action lineage.',
  'manifest.json': 'Digests of the other bundle files and their aggregate hash.',
  'poam.json': 'POA&M rows for FAIL and WARN results.',
  'ssp-narrative.md': 'SSP implementation narrative per control.',
};
