/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters: see the factories below */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { instanceCachingFactory, instancePerContainerCachingFactory } from 'tsyringe';
import { ARTIFACT_WRITER } from '../ports/artifact-writer';
import { CATALOG_SOURCE } from '../ports/catalog-source';
import { CLOCK } from '../ports/clock';
import { HASHING } from '../ports/hashing';
import { PROGRESS } from '../ports/progress';
import { REPORT_READER } from '../ports/report-reader';
import { RUN_SETTINGS } from '../ports/run-settings';
import { SCAN_READER } from '../ports/scan-reader';
import { UUIDS } from '../ports/uuids';
import { JSON_PATCHER } from '../ports/json-patcher';
import { SCHEMA_VALIDATOR } from '../ports/schema-validator';
import { SIGNER } from '../ports/signer';
import { BundledCatalogSource } from './catalog/bundled-catalog-source';
import { SystemClock } from './clock/system-clock';
import { loadConfig, toolIdentity } from './config';
import { FsReportReader } from './fs/fs-report-reader';
import { NodeCryptoUuids } from './hashing/node-crypto-uuids';

export interface AdapterOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Binds every port to its production adapter. Composition roots call this, then apply their overrides. Adapters
 * whose modules (and libraries) only some commands use are required by their factories, on first resolution, so
 * `svc ksi list` or `svc oscal validate` do not load the artifact writer, the signer or the scanner parsers.
 */
export function registerAdapters(container: DependencyContainer, { env = process.env, cwd = process.cwd() }: AdapterOptions = {}): DependencyContainer {
  const config = loadConfig(env, cwd);
  container.register(RUN_SETTINGS, { useValue: { tool: toolIdentity(), governance: config.governance } });
  container.register(CATALOG_SOURCE, { useValue: new BundledCatalogSource({ file: config.file, owners: config.owners, ksis: config.ksis }) });
  container.register(CLOCK, { useValue: new SystemClock(env.SOURCE_DATE_EPOCH) });
  container.register(PROGRESS, { useFactory: instanceCachingFactory(() => new (require('./progress/tty-progress') as typeof import('./progress/tty-progress')).TtyProgress()) });
  const splitMinBytes = env.SVC_SPLIT_MIN_BYTES === undefined ? undefined : Number(env.SVC_SPLIT_MIN_BYTES);
  container.register(REPORT_READER, { useValue: new FsReportReader({ splitMinBytes }) });
  container.register(ARTIFACT_WRITER, { useFactory: instancePerContainerCachingFactory(() => new (require('./fs/fs-artifact-writer') as typeof import('./fs/fs-artifact-writer')).FsArtifactWriter()) });
  // The 13 parsers (and their XML and CSV libraries) load only when a command reads a scan.
  container.register(SCAN_READER, {
    useFactory: instanceCachingFactory(() => {
      const { VendorScanReader } = require('./adapters/vendor-scan-reader') as typeof import('./adapters/vendor-scan-reader');
      return new VendorScanReader((require('./adapters/registry') as typeof import('./adapters/registry')).VENDOR_PARSERS);
    }),
  });
  container.register(HASHING, { useFactory: instancePerContainerCachingFactory(() => new (require('./hashing/node-crypto-hashing') as typeof import('./hashing/node-crypto-hashing')).NodeCryptoHashing()) });
  container.register(UUIDS, { useValue: new NodeCryptoUuids() });
  container.register(SIGNER, {
    useFactory: instanceCachingFactory(() => {
      const { PemSigner } = require('./signing/pem-signer') as typeof import('./signing/pem-signer');
      return new PemSigner({ envKeyPath: env.SVC_SIGNING_KEY, svcHome: resolve(cwd, env.SVC_HOME || '.svc') });
    }),
  });
  container.register(SCHEMA_VALIDATOR, {
    useFactory: instanceCachingFactory(() => {
      const { AjvSchemaValidator, defaultOscalCacheDir } = require('./oscal/ajv-schema-validator') as typeof import('./oscal/ajv-schema-validator');
      const configuredDir = env.SVC_OSCAL_SCHEMAS ? resolve(cwd, env.SVC_OSCAL_SCHEMAS) : config.oscalSchemas;
      return new AjvSchemaValidator({ configuredDir, cacheDir: resolve(cwd, defaultOscalCacheDir(env, homedir())) });
    }),
  });
  container.register(JSON_PATCHER, {
    useFactory: instanceCachingFactory(() => new (require('./json/jsonc-json-patcher') as typeof import('./json/jsonc-json-patcher')).JsoncJsonPatcher()),
  });
  return container;
}
