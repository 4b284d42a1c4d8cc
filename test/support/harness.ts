import { ProcessRun } from '../../src/application/conmon/process-run';
import { PolicyEvaluator } from '../../src/application/vulnerabilities/vulnerability-register';
import { DEFAULT_POLICY } from '../../src/domain/vulnerabilities/evaluation-policy';
import { RunDocuments } from '../../src/application/conmon/run-documents';
import { OscalRunLoader } from '../../src/application/oscal/oscal-run-loader';
import type { RunLoader } from '../../src/application/shared/run-loader';
import type { RunSettings } from '../../src/ports/run-settings';
import type { RunStore } from '../../src/ports/run-store';
import type { SecurityEventSinks } from '../../src/ports/security-event-sink';
import { DeterministicUuids } from '../fakes/deterministic-uuids';
import { InMemorySigner } from '../fakes/in-memory-signer';
import { FixedClock } from '../fakes/fixed-clock';
import { FixedCatalogSource } from '../fakes/fixed-catalog-source';
import { InMemoryArtifactWriter } from '../fakes/in-memory-artifact-writer';
import { InMemoryReportReader } from '../fakes/in-memory-report-reader';
import { PureJsHashing } from '../fakes/pure-js-hashing';
import { FixedScanReader } from '../fakes/fixed-scan-reader';
import { RecordingProgress } from '../fakes/recording-progress';
import { TEST_SETTINGS } from './builders';
import { FixedRulesSource } from '../fakes/fixed-rules-source';

/** Every port's in-memory double, for constructing use cases with `new` in unit tests. */
export function doubles(files: Record<string, unknown> = {}) {
  return {
    reader: new InMemoryReportReader(files),
    scans: new FixedScanReader(),
    writer: new InMemoryArtifactWriter(),
    hashing: new PureJsHashing(),
    clock: new FixedClock(),
    progress: new RecordingProgress(),
    catalogs: new FixedCatalogSource(),
    settings: TEST_SETTINGS,
  };
}

/** ProcessRun over the doubles: documents signed by an in-memory key, UUIDs deterministic. */
export function processRunOver(
  d: ReturnType<typeof doubles>,
  runs: RunLoader,
  store: RunStore,
  sinks: SecurityEventSinks,
  settings: RunSettings = d.settings,
): ProcessRun {
  const uuids = new DeterministicUuids();
  const documents = new RunDocuments(new OscalRunLoader(runs, uuids, settings), d.hashing);
  return new ProcessRun(
    runs,
    store,
    sinks,
    d.hashing,
    uuids,
    settings,
    new InMemorySigner(),
    documents,
    new PolicyEvaluator(d.reader, { policy: DEFAULT_POLICY }, d.hashing, new FixedRulesSource()),
  );
}
