import { readRetention, type Retention } from '../domain/conmon/retention';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_GOVERNANCE_POLICY, type GovernancePolicy } from '../domain/governance/governance-policy';
import { isSeverity, SEVERITIES, type Severity } from '../domain/governance/severity';
import { describe, isPlainObject } from '../domain/encoding/json-values';
import { InvalidInputError } from '../domain/errors';
import { parseJson } from '../domain/encoding/json-syntax-problem';
import { readFedrampProfile, type FedrampProfile } from '../domain/fedramp/profile';
import { readAgencySettings, type AgencySettings } from '../domain/agency/providers';
import { readVulnerabilitySettings, type VulnerabilitySettings } from '../domain/vulnerabilities/evaluation-policy';

export interface KsiOverride {
  severity?: Severity;
  owner?: string;
  frequency_days?: number;
}

/** svc.config.json: overrides of the defaults of DESIGN §4 and §5. Every key is optional. */
export interface SvcConfig {
  file?: string;
  governance: GovernancePolicy;
  /** Owner mailbox per family (`AC`), replacing the catalog default for each of its KSIs. */
  owners: Record<string, string>;
  ksis: Record<string, KsiOverride>;
  /** Directory of NIST's OSCAL schema releases, resolved against the config file's directory. */
  oscalSchemas?: string;
  /** Directory of FedRAMP's CR26 JSON Schemas (`fedramp_schemas`), resolved against the config file's directory. */
  fedrampSchemas?: string;
  /** Sinks `svc conmon process` sends events to when no --sink is given (conmon.sinks). */
  sinks: string[];
  /** How long recorded runs keep their full documents (conmon.retention); absent: for good. */
  retention?: Retention;
  /** The offering's FedRAMP profile (`fedramp`, DESIGN §12.1), its file paths resolved against the config file's directory. */
  fedramp?: FedrampProfile;
  /** The evaluation policy and the KEV catalog of DESIGN §12.4 (`vulnerabilities`), the catalog's path resolved. */
  vulnerabilities?: VulnerabilitySettings;
  /** The agency side (`agency`, DESIGN §14): the providers' trust centers and how to pull them. */
  agency?: AgencySettings;
}

const MAILBOX = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Reads `SVC_CONFIG`, else `svc.config.json` in the working directory when there is one, else the defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): SvcConfig {
  const explicit = env.SVC_CONFIG;
  const file = explicit ? resolve(cwd, explicit) : join(cwd, 'svc.config.json');
  if (!explicit && !existsSync(file)) return { governance: DEFAULT_GOVERNANCE_POLICY, owners: {}, ksis: {}, sinks: [] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  } catch {
    throw new InvalidInputError('config-unreadable', `${file}: cannot read the config file named by SVC_CONFIG; fix the path or unset SVC_CONFIG`);
  }
  return readConfig(parseJson(text, file), file);
}

export function readConfig(document: unknown, file: string): SvcConfig {
  const fail = (path: string, problem: string): never => {
    throw new InvalidInputError('invalid-config', `${file}: ${path}: ${problem}; see docs/configuration.md`);
  };
  if (!isPlainObject(document)) return fail('$', `expected an object, got ${describe(document)}`);
  for (const key of Object.keys(document))
    if (!['owners', 'sla_days', 'ksis', 'oscal_schemas', 'fedramp_schemas', 'conmon', 'fedramp', 'vulnerabilities', 'agency', '$schema'].includes(key))
      fail(key, 'unknown setting (known: owners, sla_days, ksis, oscal_schemas, fedramp_schemas, conmon, fedramp, vulnerabilities, agency)');
  const sinks: string[] = [];
  let retention: Retention | undefined;
  for (const [key, value] of entries(document.conmon, 'conmon', fail)) {
    if (key === 'retention') {
      retention = readRetention(value, fail);
      continue;
    }
    if (key !== 'sinks') fail(`conmon.${key}`, 'unknown setting (known: sinks, retention)');
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || v.trim() === ''))
      fail('conmon.sinks', `expected an array of sink specs such as "ndjson:events.ndjson", got ${describe(value)}`);
    sinks.push(...(value as string[]));
  }
  const schemas = document.oscal_schemas;
  if (schemas !== undefined && (typeof schemas !== 'string' || schemas.trim() === ''))
    fail('oscal_schemas', `expected a directory path, got ${describe(schemas)}`);
  const fedrampSchemas = document.fedramp_schemas;
  if (fedrampSchemas !== undefined && (typeof fedrampSchemas !== 'string' || fedrampSchemas.trim() === ''))
    fail('fedramp_schemas', `expected a directory path, got ${describe(fedrampSchemas)}`);
  const owners: Record<string, string> = {};
  let unmapped = DEFAULT_GOVERNANCE_POLICY.unmapped_owner;
  for (const [family, owner] of entries(document.owners, 'owners', fail)) {
    if (typeof owner !== 'string' || !MAILBOX.test(owner)) fail(`owners.${family}`, `expected a mailbox, got ${describe(owner)}`);
    if (family === 'unmapped') unmapped = owner as string;
    else if (!/^[A-Z]{2}$/.test(family)) fail(`owners.${family}`, 'expected a family such as AC, or "unmapped"');
    else owners[family] = owner as string;
  }
  const sla = { ...DEFAULT_GOVERNANCE_POLICY.sla_days };
  for (const [severity, days] of entries(document.sla_days, 'sla_days', fail)) {
    if (!isSeverity(severity)) fail(`sla_days.${severity}`, `expected one of ${SEVERITIES.join(', ')}`);
    if (!Number.isInteger(days) || (days as number) <= 0) fail(`sla_days.${severity}`, `expected a positive whole number of days, got ${describe(days)}`);
    sla[severity as Severity] = days as number;
  }
  const ksis: Record<string, KsiOverride> = {};
  for (const [id, value] of entries(document.ksis, 'ksis', fail)) {
    if (!isPlainObject(value)) fail(`ksis.${id}`, `expected an object, got ${describe(value)}`);
    const o = value as Record<string, unknown>;
    const override: KsiOverride = {};
    for (const [key, v] of Object.entries(o)) {
      if (key === 'severity' && isSeverity(v)) override.severity = v;
      else if (key === 'owner' && typeof v === 'string' && MAILBOX.test(v)) override.owner = v;
      else if (key === 'frequency_days' && Number.isInteger(v) && (v as number) > 0) override.frequency_days = v as number;
      else fail(`ksis.${id}.${key}`, `cannot set ${describe(v)} (settable: severity Critical|High|Medium|Low, owner mailbox, frequency_days whole number)`);
    }
    ksis[id] = override;
  }
  const fedramp = document.fedramp === undefined ? undefined : readFedrampProfile(document.fedramp, fail, (path) => resolve(dirname(file), path));
  const vulnerabilities =
    document.vulnerabilities === undefined ? undefined : readVulnerabilitySettings(document.vulnerabilities, fail, (path) => resolve(dirname(file), path));
  const agency = document.agency === undefined ? undefined : readAgencySettings(document.agency, fail, (path) => resolve(dirname(file), path));
  return {
    file,
    governance: { sla_days: sla, unmapped_owner: unmapped },
    owners,
    ksis,
    sinks,
    ...(retention === undefined ? {} : { retention }),
    ...(typeof schemas === 'string' ? { oscalSchemas: resolve(dirname(file), schemas) } : {}),
    ...(typeof fedrampSchemas === 'string' ? { fedrampSchemas: resolve(dirname(file), fedrampSchemas) } : {}),
    ...(fedramp === undefined ? {} : { fedramp }),
    ...(vulnerabilities === undefined ? {} : { vulnerabilities }),
    ...(agency === undefined ? {} : { agency }),
  };
}

function entries(value: unknown, path: string, fail: (p: string, m: string) => never): [string, unknown][] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) return fail(path, `expected an object, got ${describe(value)}`);
  return Object.entries(value);
}

/** The package's own name and version, read once. */
export function toolIdentity(): { name: string; version: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require(join(__dirname, '..', '..', 'package.json')) as { version: string };
  return { name: 'svc', version: pkg.version };
}
