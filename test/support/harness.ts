import { FixedClock } from '../fakes/fixed-clock';
import { FixedCatalogSource } from '../fakes/fixed-catalog-source';
import { InMemoryArtifactWriter } from '../fakes/in-memory-artifact-writer';
import { InMemoryReportReader } from '../fakes/in-memory-report-reader';
import { PureJsHashing } from '../fakes/pure-js-hashing';
import { RecordingProgress } from '../fakes/recording-progress';
import { TEST_SETTINGS } from './builders';

/** Every port's in-memory double, for constructing use cases with `new` in unit tests. */
export function doubles(files: Record<string, unknown> = {}) {
  return {
    reader: new InMemoryReportReader(files),
    writer: new InMemoryArtifactWriter(),
    hashing: new PureJsHashing(),
    clock: new FixedClock(),
    progress: new RecordingProgress(),
    catalogs: new FixedCatalogSource(),
    settings: TEST_SETTINGS,
  };
}
