import type { DependencyContainer } from 'tsyringe';
import { instanceCachingFactory, Lifecycle } from 'tsyringe';
import { ARTIFACT_WRITER } from '../ports/artifact-writer';
import { CATALOG_SOURCE } from '../ports/catalog-source';
import { CLOCK } from '../ports/clock';
import { HASHING } from '../ports/hashing';
import { PROGRESS } from '../ports/progress';
import { REPORT_READER } from '../ports/report-reader';
import { RUN_SETTINGS } from '../ports/run-settings';
import { SCAN_READER } from '../ports/scan-reader';
import { UUIDS } from '../ports/uuids';
import { VendorScanReader } from './adapters/vendor-scan-reader';
import { BundledCatalogSource } from './catalog/bundled-catalog-source';
import { SystemClock } from './clock/system-clock';
import { loadConfig, toolIdentity } from './config';
import { FsArtifactWriter } from './fs/fs-artifact-writer';
import { FsReportReader } from './fs/fs-report-reader';
import { NodeCryptoHashing } from './hashing/node-crypto-hashing';
import { NodeCryptoUuids } from './hashing/node-crypto-uuids';
import { TtyProgress } from './progress/tty-progress';

export interface AdapterOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Binds every port to its production adapter. Composition roots call this, then apply their overrides. */
export function registerAdapters(container: DependencyContainer, { env = process.env, cwd = process.cwd() }: AdapterOptions = {}): DependencyContainer {
  const config = loadConfig(env, cwd);
  container.register(RUN_SETTINGS, { useValue: { tool: toolIdentity(), governance: config.governance } });
  container.register(CATALOG_SOURCE, { useValue: new BundledCatalogSource({ file: config.file, owners: config.owners, ksis: config.ksis }) });
  container.register(CLOCK, { useValue: new SystemClock(env.SOURCE_DATE_EPOCH) });
  container.register(PROGRESS, { useValue: new TtyProgress() });
  const splitMinBytes = env.SVC_SPLIT_MIN_BYTES === undefined ? undefined : Number(env.SVC_SPLIT_MIN_BYTES);
  container.register(REPORT_READER, { useValue: new FsReportReader({ splitMinBytes }) });
  container.register(ARTIFACT_WRITER, { useClass: FsArtifactWriter }, { lifecycle: Lifecycle.ContainerScoped });
  // The 13 parsers (and their XML and CSV libraries) load only when a command reads a scan.
  container.register(SCAN_READER, {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    useFactory: instanceCachingFactory(() => new VendorScanReader((require('./adapters/registry') as typeof import('./adapters/registry')).VENDOR_PARSERS)),
  });
  container.register(HASHING, { useClass: NodeCryptoHashing }, { lifecycle: Lifecycle.ContainerScoped });
  container.register(UUIDS, { useValue: new NodeCryptoUuids() });
  return container;
}
