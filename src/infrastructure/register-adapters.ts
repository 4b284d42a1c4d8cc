/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters: see the factories below */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { instanceCachingFactory, instancePerContainerCachingFactory } from 'tsyringe';
import { ARTIFACT_WRITER } from '../ports/artifact-writer';
import { CATALOG_SOURCE } from '../ports/catalog-source';
import { FEDRAMP_RULES_SOURCE } from '../ports/fedramp-rules-source';
import { FEDRAMP_PROFILE } from '../ports/fedramp-profile';
import { VULNERABILITY_SETTINGS } from '../ports/vulnerability-settings';
import { DEFAULT_POLICY } from '../domain/vulnerabilities/evaluation-policy';
import { CLOCK } from '../ports/clock';
import { HASHING } from '../ports/hashing';
import { PROGRESS } from '../ports/progress';
import { REPORT_READER } from '../ports/report-reader';
import { PARTITIONED_REPORT_READER } from '../ports/partitioned-report';
import { RUN_SETTINGS } from '../ports/run-settings';
import { SCAN_READER, type ScanReader } from '../ports/scan-reader';
import { UUIDS } from '../ports/uuids';
import { JSON_PATCHER } from '../ports/json-patcher';
import { SCHEMA_VALIDATOR } from '../ports/schema-validator';
import { SIGNER } from '../ports/signer';
import { BOUNDARY_PROBE } from '../ports/boundary-probe';
import { DIRECTORY_SERVICE } from '../ports/directory-service';
import { GRAPH_SETTINGS } from '../ports/graph-settings';
import { ORG_PATH_DIRECTORY } from '../ports/org-path-directory';
import { WORKBOOKS } from '../ports/workbooks';
import { HTML_SITE } from '../ports/html-site';
import { MARKDOWN_DOCS } from '../ports/markdown-docs';
import { PRESENTATIONS } from '../ports/presentations';
import { SBOM_GENERATOR } from '../ports/sbom-generator';
import { WORD_DOCUMENTS } from '../ports/word-documents';
import { CONFIG_TREE_READER } from '../ports/config-tree-reader';
import { CRON_SCHEDULE } from '../ports/cron-schedule';
import { JOB_HISTORY } from '../ports/job-history';
import { JOB_LOCK } from '../ports/job-lock';
import { JOB_QUEUE } from '../ports/job-queue';
import { ORCHESTRATOR_CONFIG_SOURCE } from '../ports/orchestrator-config-source';
import { PROCESS_RUNNER } from '../ports/process-runner';
import { TIMER } from '../ports/timer';
import { YAML_ENCODER } from '../ports/yaml-encoder';
import { QUERY_PARSER } from '../ports/query-parser';
import { HTML_RENDERER } from '../ports/html-renderer';
import { TRUST_PAGES } from '../ports/trust-pages';
import { BUSINESS_CALENDAR } from '../ports/business-calendar';
import { POAM_WORKBOOK } from '../ports/poam-workbook';
import { RUN_STORE, type RunStore } from '../ports/run-store';
import { ACCESS_STORE, type AccessStore } from '../ports/access-store';
import { SECURITY_EVENT_SINKS } from '../ports/security-event-sink';
import { AppError, ConfigError } from '../domain/errors';
import { BundledCatalogSource } from './catalog/bundled-catalog-source';
import { SystemClock } from './clock/system-clock';
import { loadConfig, toolIdentity } from './config';
import { FsReportReader } from './reports/fs-report-reader';
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
  container.register(RUN_SETTINGS, { useValue: { tool: toolIdentity(), governance: config.governance, conmon: { sinks: config.sinks, ...(config.retention === undefined ? {} : { retention: config.retention }) } } });
  container.register(CATALOG_SOURCE, { useValue: new BundledCatalogSource({ file: config.file, owners: config.owners, ksis: config.ksis }) });
  container.register(FEDRAMP_PROFILE, { useValue: { file: config.file ?? 'svc.config.json', profile: config.fedramp ?? {} } });
  container.register(VULNERABILITY_SETTINGS, { useValue: config.vulnerabilities ?? { policy: DEFAULT_POLICY } });
  container.register(FEDRAMP_RULES_SOURCE, {
    useFactory: instanceCachingFactory(() => new (require('./fedramp/bundled-rules-source') as typeof import('./fedramp/bundled-rules-source')).BundledRulesSource({ officialFile: env.SVC_FEDRAMP_RULES ? resolve(cwd, env.SVC_FEDRAMP_RULES) : undefined })),
  });
  container.register(CLOCK, { useValue: new SystemClock(env.SOURCE_DATE_EPOCH) });
  container.register(PROGRESS, { useFactory: instanceCachingFactory(() => new (require('./progress/tty-progress') as typeof import('./progress/tty-progress')).TtyProgress()) });
  const splitMinBytes = env.SVC_SPLIT_MIN_BYTES === undefined ? undefined : Number(env.SVC_SPLIT_MIN_BYTES);
  const reader = new FsReportReader();
  container.register(REPORT_READER, { useValue: reader });
  container.register(PARTITIONED_REPORT_READER, {
    useFactory: instanceCachingFactory(() => new (require('./reports/parallel-report-reader') as typeof import('./reports/parallel-report-reader')).ParallelReportReader(reader, { splitMinBytes })),
  });
  container.register(ARTIFACT_WRITER, { useFactory: instancePerContainerCachingFactory(() => new (require('./artifacts/fs-artifact-writer') as typeof import('./artifacts/fs-artifact-writer')).FsArtifactWriter()) });
  // The parsers (and their XML and CSV libraries) load only when a scan is read or asked about: every use case that
  // reads a normalized report holds the reader, to name the scanner of a scanner's file given instead (scanner-output.ts).
  let scans: ScanReader | undefined;
  const scanReader = (): ScanReader =>
    (scans ??= new (require('./scans/vendor-scan-reader') as typeof import('./scans/vendor-scan-reader')).VendorScanReader((require('./scans/registry') as typeof import('./scans/registry')).VENDOR_PARSERS));
  container.register(SCAN_READER, { useValue: { vendors: () => scanReader().vendors(), read: (vendor, path) => scanReader().read(vendor, path), detect: (path) => scanReader().detect(path) } });
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
      const { AjvSchemaValidator, defaultFedrampCacheDir, defaultOscalCacheDir } = require('./schemas/ajv-schema-validator') as typeof import('./schemas/ajv-schema-validator');
      const { CARRIED_SCHEMAS_DIR } = require('./schemas/carried-schemas') as typeof import('./schemas/carried-schemas');
      const configuredDir = env.SVC_OSCAL_SCHEMAS ? resolve(cwd, env.SVC_OSCAL_SCHEMAS) : config.oscalSchemas;
      const fedrampConfiguredDir = env.SVC_FEDRAMP_SCHEMAS ? resolve(cwd, env.SVC_FEDRAMP_SCHEMAS) : config.fedrampSchemas;
      return new AjvSchemaValidator({
        configuredDir,
        cacheDir: resolve(cwd, defaultOscalCacheDir(env, homedir())),
        fedrampConfiguredDir,
        fedrampCacheDir: resolve(cwd, defaultFedrampCacheDir(env, homedir())),
        // With none given or configured: the schemas svc carries (docs/schemas.md).
        carriedDir: CARRIED_SCHEMAS_DIR,
      });
    }),
  });
  container.register(RUN_STORE, { useFactory: instanceCachingFactory(orRefusal(() => openRunStore(env, resolve(cwd, env.SVC_HOME || '.svc'), cwd))) });
  // The access log is the run store's own (a test's RUN_STORE included), reached apart from the runs (ports/access-store.ts).
  container.register(ACCESS_STORE, { useFactory: (c) => accessStoreOf(c.resolve(RUN_STORE)) });
  container.register(SECURITY_EVENT_SINKS, {
    useFactory: instanceCachingFactory(
      orRefusal(() => {
        const { SinkFactory } = require('./sinks/sink-factory') as typeof import('./sinks/sink-factory');
        return new SinkFactory({ token: env.SVC_SINK_TOKEN, cwd, retry: retryFromEnv(env) });
      }),
    ),
  });
  container.register(HTML_RENDERER, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/html/html-dashboard-renderer') as typeof import('./renderers/html/html-dashboard-renderer')).HtmlDashboardRenderer()),
  });
  container.register(TRUST_PAGES, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/html/html-trust-pages') as typeof import('./renderers/html/html-trust-pages')).HtmlTrustPages()),
  });
  container.register(BUSINESS_CALENDAR, {
    useFactory: instanceCachingFactory(() => new (require('./calendar/us-federal-holidays') as typeof import('./calendar/us-federal-holidays')).UsFederalHolidays()),
  });
  // exceljs takes about 300 ms to load: only poam-export and generate poam pay for it.
  container.register(POAM_WORKBOOK, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/xlsx/exceljs-poam-workbook') as typeof import('./renderers/xlsx/exceljs-poam-workbook')).ExceljsPoamWorkbook()),
  });
  container.register(JSON_PATCHER, {
    useFactory: instanceCachingFactory(() => new (require('./json-patcher/jsonc-json-patcher') as typeof import('./json-patcher/jsonc-json-patcher')).JsoncJsonPatcher()),
  });
  container.register(QUERY_PARSER, { useFactory: instanceCachingFactory(() => new (require('./cql/chevrotain-query-parser') as typeof import('./cql/chevrotain-query-parser')).ChevrotainQueryParser()) });
  // The orchestrator (svc orchestrator ...): its state lives under the svc home; pg-boss loads only with SVC_STORE=postgres://.
  const orchestratorHome = resolve(cwd, env.SVC_HOME || '.svc');
  container.register(CRON_SCHEDULE, {
    useFactory: instanceCachingFactory(() => new (require('./orchestrator/cron-parser-schedule') as typeof import('./orchestrator/cron-parser-schedule')).CronParserSchedule()),
  });
  container.register(ORCHESTRATOR_CONFIG_SOURCE, {
    useFactory: instanceCachingFactory((c) => {
      const { FsOrchestratorConfigSource } = require('./orchestrator/fs-orchestrator-config-source') as typeof import('./orchestrator/fs-orchestrator-config-source');
      return new FsOrchestratorConfigSource({ cwd, cron: c.resolve(CRON_SCHEDULE), vendors: () => c.resolve(SCAN_READER).vendors().map((v) => v.vendor) });
    }),
  });
  container.register(JOB_LOCK, {
    useFactory: instanceCachingFactory(() => new (require('./orchestrator/file-job-lock') as typeof import('./orchestrator/file-job-lock')).FileJobLock({ dir: resolve(orchestratorHome, 'locks') })),
  });
  container.register(JOB_HISTORY, {
    useFactory: instanceCachingFactory(() => new (require('./orchestrator/fs-job-history') as typeof import('./orchestrator/fs-job-history')).FsJobHistory(resolve(orchestratorHome, 'orchestrator'))),
  });
  container.register(PROCESS_RUNNER, {
    useFactory: instanceCachingFactory(() => new (require('./orchestrator/node-process-runner') as typeof import('./orchestrator/node-process-runner')).NodeProcessRunner()),
  });
  container.register(TIMER, { useFactory: instanceCachingFactory(() => new (require('./orchestrator/system-timer') as typeof import('./orchestrator/system-timer')).SystemTimer()) });
  container.register(YAML_ENCODER, {
    useFactory: instanceCachingFactory(() => new (require('./orchestrator/yaml-library-encoder') as typeof import('./orchestrator/yaml-library-encoder')).YamlLibraryEncoder()),
  });
  container.register(JOB_QUEUE, {
    useFactory: instanceCachingFactory(() => {
      const url = env.SVC_STORE;
      if (url === undefined || !/^postgres(ql)?:\/\//i.test(url)) return (require('./queue/local-job-queue') as typeof import('./queue/local-job-queue')).LOCAL_QUEUE;
      const { PgBossJobQueue } = require('./queue/pg-boss-job-queue') as typeof import('./queue/pg-boss-job-queue');
      const { redactUrl } = require('./store/postgres-run-store') as typeof import('./store/postgres-run-store');
      return new PgBossJobQueue({ url, location: redactUrl(url) });
    }),
  });
  // yaml and ignore load only when a substrate command walks a tree.
  container.register(CONFIG_TREE_READER, {
    useFactory: instanceCachingFactory(() => new (require('./substrate/fs-config-tree-reader') as typeof import('./substrate/fs-config-tree-reader')).FsConfigTreeReader()),
  });
  // docx loads only for generate docx|sar|sap.
  container.register(WORD_DOCUMENTS, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/docx/docx-word-documents') as typeof import('./renderers/docx/docx-word-documents')).DocxWordDocuments()),
  });
  // pptxgenjs and the CycloneDX library load only for generate pptx / generate sbom.
  container.register(PRESENTATIONS, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/pptx/pptxgenjs-presentations') as typeof import('./renderers/pptx/pptxgenjs-presentations')).PptxgenjsPresentations()),
  });
  container.register(SBOM_GENERATOR, {
    useFactory: instanceCachingFactory((c) => {
      const { CyclonedxSbomGenerator } = require('./sbom/cyclonedx-sbom-generator') as typeof import('./sbom/cyclonedx-sbom-generator');
      return new CyclonedxSbomGenerator({ root: resolve(__dirname, '..', '..'), uuids: c.resolve(UUIDS) });
    }),
  });
  // svc generate crm | inventory | docs | site: exceljs and the page renderers load on first use.
  container.register(WORKBOOKS, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/xlsx/exceljs-workbooks') as typeof import('./renderers/xlsx/exceljs-workbooks')).ExceljsWorkbooks()),
  });
  container.register(MARKDOWN_DOCS, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/markdown/markdown-docs-renderer') as typeof import('./renderers/markdown/markdown-docs-renderer')).MarkdownDocsRenderer()),
  });
  container.register(HTML_SITE, {
    useFactory: instanceCachingFactory(() => new (require('./renderers/html/html-site-renderer') as typeof import('./renderers/html/html-site-renderer')).HtmlSiteRenderer()),
  });
  // Microsoft Graph (svc-api directory routes). GRAPH_SETTINGS is registered by the API's composition root; with
  // graph.export set the adapters read that file offline, else MSAL + Graph (msal-node loads on first use).
  const graphModule = () => require('./directory/graph-adapters') as typeof import('./directory/graph-adapters');
  const graphSettings = (c: DependencyContainer) => {
    if (!c.isRegistered(GRAPH_SETTINGS, true)) {
      throw new ConfigError('graph-not-configured', 'the API config has no "graph" section; add one with the tenant, app and credential, or with "export" for offline mode (docs/graph.md)');
    }
    return c.resolve(GRAPH_SETTINGS);
  };
  container.register(DIRECTORY_SERVICE, { useFactory: instanceCachingFactory((c) => orRefusal(() => graphModule().createDirectoryService(graphSettings(c), { env }))()) });
  container.register(ORG_PATH_DIRECTORY, { useFactory: instanceCachingFactory((c) => orRefusal(() => graphModule().createOrgPathDirectory(graphSettings(c), { env }))()) });
  container.register(BOUNDARY_PROBE, {
    useFactory: instanceCachingFactory((c) => orRefusal(() => graphModule().createBoundaryProbe(c.isRegistered(GRAPH_SETTINGS, true) ? c.resolve(GRAPH_SETTINGS) : undefined))()),
  });
  return container;
}

/**
 * SVC_STORE picks the run store: unset, the file store under the svc home (`.svc/store`); `postgres://` or
 * `postgresql://`, the shared PostgreSQL store; anything else, a directory for the file store.
 */
function openRunStore(env: NodeJS.ProcessEnv, svcHome: string, cwd: string) {
  const spec = env.SVC_STORE;
  if (spec !== undefined && /^postgres(ql)?:\/\//i.test(spec)) {
    const { PostgresRunStore } = require('./store/postgres-run-store') as typeof import('./store/postgres-run-store');
    return new PostgresRunStore({ url: spec, lockTimeoutMs: wholeMs(env, 'SVC_STORE_LOCK_WAIT_MS'), waiting: (line) => process.stderr.write(`${line}\n`) });
  }
  if (spec !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    throw new ConfigError('bad-store', `SVC_STORE: ${spec.replace(/\/\/[^@/]*@/, '//***@')} is not a run store; use postgres://user@host/db, or a directory for the file store`);
  }
  const { FileRunStore } = require('./store/file-run-store') as typeof import('./store/file-run-store');
  return new FileRunStore({
    dir: spec ? resolve(cwd, spec) : resolve(svcHome, 'store'),
    lockTimeoutMs: wholeMs(env, 'SVC_STORE_LOCK_WAIT_MS'),
    leaseMs: wholeMs(env, 'SVC_STORE_LEASE_MS'),
    waiting: (line) => process.stderr.write(`${line}\n`),
  });
}

/** The run store as the access log's store; every store svc has is both, a view of one (SnapshotStore) is not. */
function accessStoreOf(store: RunStore): AccessStore {
  const candidate = store as RunStore & Partial<AccessStore>;
  if (typeof candidate.accessTallies !== 'function' || typeof candidate.pruneAccess !== 'function') {
    throw new Error(`the run store at ${store.location} keeps no access log summaries (accessTallies, pruneAccess): resolve ACCESS_STORE from the API's own container`);
  }
  return candidate as RunStore & AccessStore;
}

/** SVC_STORE_LOCK_WAIT_MS / SVC_STORE_LEASE_MS: how long a writer waits for the store's lock, and the file store lease's expiry. */
function wholeMs(env: NodeJS.ProcessEnv, name: 'SVC_STORE_LOCK_WAIT_MS' | 'SVC_STORE_LEASE_MS'): number | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new ConfigError('bad-store-timing', `${name}=${value}: expected a whole number of milliseconds, at least 1`);
  return Number(value);
}

/** SVC_SINK_RETRIES / SVC_SINK_BACKOFF_MS tune sink retries (tests shorten them; operators may lengthen them). */
function retryFromEnv(env: NodeJS.ProcessEnv): { attempts?: number; baseDelayMs?: number } {
  const retry: { attempts?: number; baseDelayMs?: number } = {};
  const settings = [['SVC_SINK_RETRIES', 'attempts', 1], ['SVC_SINK_BACKOFF_MS', 'baseDelayMs', 0]] as const;
  for (const [name, key, min] of settings) {
    const value = env[name];
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) < min) throw new ConfigError('bad-sink-retry', `${name}=${value}: expected a whole number of at least ${min}`);
    retry[key] = Number(value);
  }
  return retry;
}

/**
 * tsyringe rethrows a factory's error as a plain Error with only its message, which would turn a configuration
 * mistake (exit 5) into an internal error (exit 70). So an adapter that cannot be built from its settings is
 * replaced by one whose every use throws the original error.
 */
function orRefusal<T extends object>(make: () => T): () => T {
  return () => {
    try {
      return make();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return new Proxy({} as T, {
        get: (_target, key) => (key === 'then' ? undefined : () => { throw error; }),
      });
    }
  };
}
