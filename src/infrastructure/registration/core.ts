/* eslint-disable @typescript-eslint/no-require-imports -- lazy adapters (lazy.ts) */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { DependencyContainer } from 'tsyringe';
import { DEFAULT_POLICY } from '../../domain/vulnerabilities/evaluation-policy';
import { BUSINESS_CALENDAR } from '../../ports/business-calendar';
import { CATALOG_SOURCE } from '../../ports/catalog-source';
import { CLOCK } from '../../ports/clock';
import { FEDRAMP_PROFILE } from '../../ports/fedramp-profile';
import { FEDRAMP_RULES_SOURCE } from '../../ports/fedramp-rules-source';
import { HASHING } from '../../ports/hashing';
import { JSON_PATCHER } from '../../ports/json-patcher';
import { PROGRESS } from '../../ports/progress';
import { QUERY_PARSER } from '../../ports/query-parser';
import { RUN_SETTINGS } from '../../ports/run-settings';
import { SCHEMA_VALIDATOR } from '../../ports/schema-validator';
import { SIGNER } from '../../ports/signer';
import { UUIDS } from '../../ports/uuids';
import { VULNERABILITY_SETTINGS } from '../../ports/vulnerability-settings';
import { BundledCatalogSource } from '../catalog/bundled-catalog-source';
import { SystemClock } from '../clock/system-clock';
import { toolIdentity } from '../config';
import { NodeCryptoUuids } from '../hashing/node-crypto-uuids';
import { lazy, type RegistrationContext } from './lazy';

/** The settings from svc.config.json, the catalog and the rules, time, hashing, signing and schemas: what every command may reach. */
export function registerCore(container: DependencyContainer, { env, cwd, config, svcHome }: RegistrationContext): void {
  container.register(RUN_SETTINGS, {
    useValue: {
      tool: toolIdentity(),
      governance: config.governance,
      conmon: { sinks: config.sinks, ...(config.retention === undefined ? {} : { retention: config.retention }) },
    },
  });
  container.register(CATALOG_SOURCE, { useValue: new BundledCatalogSource({ file: config.file, owners: config.owners, ksis: config.ksis }) });
  container.register(FEDRAMP_PROFILE, { useValue: { file: config.file ?? 'svc.config.json', profile: config.fedramp ?? {} } });
  container.register(VULNERABILITY_SETTINGS, { useValue: config.vulnerabilities ?? { policy: DEFAULT_POLICY } });
  lazy(
    container,
    FEDRAMP_RULES_SOURCE,
    () => require('../fedramp/bundled-rules-source') as typeof import('../fedramp/bundled-rules-source'),
    (m) => new m.BundledRulesSource({ officialFile: env.SVC_FEDRAMP_RULES ? resolve(cwd, env.SVC_FEDRAMP_RULES) : undefined }),
  );
  container.register(CLOCK, { useValue: new SystemClock(env.SOURCE_DATE_EPOCH) });
  lazy(
    container,
    PROGRESS,
    () => require('../progress/tty-progress') as typeof import('../progress/tty-progress'),
    (m) => new m.TtyProgress(),
  );
  lazy(
    container,
    HASHING,
    () => require('../hashing/node-crypto-hashing') as typeof import('../hashing/node-crypto-hashing'),
    (m) => new m.NodeCryptoHashing(),
    { perContainer: true },
  );
  container.register(UUIDS, { useValue: new NodeCryptoUuids() });
  lazy(
    container,
    SIGNER,
    () => require('../signing/pem-signer') as typeof import('../signing/pem-signer'),
    (m) => new m.PemSigner({ envKeyPath: env.SVC_SIGNING_KEY, svcHome }),
  );
  lazy(
    container,
    SCHEMA_VALIDATOR,
    () => ({
      ...(require('../schemas/ajv-schema-validator') as typeof import('../schemas/ajv-schema-validator')),
      ...(require('../schemas/carried-schemas') as typeof import('../schemas/carried-schemas')),
    }),
    ({ AjvSchemaValidator, defaultFedrampCacheDir, defaultOscalCacheDir, CARRIED_SCHEMAS_DIR }) =>
      new AjvSchemaValidator({
        configuredDir: env.SVC_OSCAL_SCHEMAS ? resolve(cwd, env.SVC_OSCAL_SCHEMAS) : config.oscalSchemas,
        cacheDir: resolve(cwd, defaultOscalCacheDir(env, homedir())),
        fedrampConfiguredDir: env.SVC_FEDRAMP_SCHEMAS ? resolve(cwd, env.SVC_FEDRAMP_SCHEMAS) : config.fedrampSchemas,
        fedrampCacheDir: resolve(cwd, defaultFedrampCacheDir(env, homedir())),
        // With none given or configured: the schemas svc carries (docs/schemas.md).
        carriedDir: CARRIED_SCHEMAS_DIR,
      }),
  );
  lazy(
    container,
    BUSINESS_CALENDAR,
    () => require('../calendar/us-federal-holidays') as typeof import('../calendar/us-federal-holidays'),
    (m) => new m.UsFederalHolidays(),
  );
  lazy(
    container,
    JSON_PATCHER,
    () => require('../json-patcher/jsonc-json-patcher') as typeof import('../json-patcher/jsonc-json-patcher'),
    (m) => new m.JsoncJsonPatcher(),
  );
  lazy(
    container,
    QUERY_PARSER,
    () => require('../cql/chevrotain-query-parser') as typeof import('../cql/chevrotain-query-parser'),
    (m) => new m.ChevrotainQueryParser(),
  );
}
