import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BundledCatalogSource } from '../../src/infrastructure/catalog/bundled-catalog-source';
import { loadConfig, readConfig } from '../../src/infrastructure/config';

describe('svc.config.json', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the defaults of DESIGN §4 and §5 when there is no file', () => {
    expect(loadConfig({}, dir)).toEqual({ governance: { sla_days: { Critical: 7, High: 14, Medium: 30, Low: 60 }, unmapped_owner: 'compliance-team@agency.example' }, owners: {}, ksis: {}, sinks: [] });
  });

  it('reads svc.config.json from the working directory, or the file SVC_CONFIG names', () => {
    writeFileSync(join(dir, 'svc.config.json'), JSON.stringify({ owners: { AC: 'iam@x.example', unmapped: 'grc@x.example' }, sla_days: { Low: 90 }, ksis: { 'KSI-AC-02': { severity: 'High', frequency_days: 7 } } }));
    const config = loadConfig({}, dir);
    expect(config).toMatchObject({ owners: { AC: 'iam@x.example' }, governance: { sla_days: { Low: 90, Critical: 7 }, unmapped_owner: 'grc@x.example' }, ksis: { 'KSI-AC-02': { severity: 'High', frequency_days: 7 } } });
    writeFileSync(join(dir, 'other.json'), '{}');
    expect(loadConfig({ SVC_CONFIG: 'other.json' }, dir).owners).toEqual({});
    expect(() => loadConfig({ SVC_CONFIG: 'missing.json' }, dir)).toThrow(/missing\.json: cannot read the config file named by SVC_CONFIG/);
  });

  it('lays the overrides over the catalog', () => {
    const source = new BundledCatalogSource({ owners: { AC: 'iam@x.example' }, ksis: { 'KSI-AC-02': { severity: 'High' } } });
    expect(source.catalog().get('KSI-AC-02')).toMatchObject({ owner: 'iam@x.example', severity: 'High', frequency_days: 3 });
    expect(source.catalog().get('KSI-AC-03')?.owner).toBe('iam@x.example');
    expect(source.catalog().get('KSI-AU-02')?.owner).toBe('secops-team@agency.example');
  });

  it.each<[string, unknown, string]>([
    ['an unknown setting', { owner: {} }, 'c.json: owner: unknown setting (known: owners, sla_days, ksis, oscal_schemas, conmon); see docs/configuration.md'],
    ['an owner that is no mailbox', { owners: { AC: 'team' } }, 'c.json: owners.AC: expected a mailbox, got "team"'],
    ['an unknown severity', { sla_days: { Severe: 1 } }, 'c.json: sla_days.Severe: expected one of Critical, High, Medium, Low'],
    ['a bad KSI value', { ksis: { 'KSI-AC-02': { severity: 'Urgent' } } }, 'c.json: ksis.KSI-AC-02.severity: cannot set "Urgent"'],
    ['not an object', [], 'c.json: $: expected an object, got an array'],
    ['an empty schema directory', { oscal_schemas: ' ' }, 'c.json: oscal_schemas: expected a directory path, got " "'],
    ['a conmon setting it does not know', { conmon: { sink: [] } }, 'c.json: conmon.sink: unknown setting (known: sinks)'],
    ['sinks that are not a list of specs', { conmon: { sinks: 'ndjson:x' } }, 'c.json: conmon.sinks: expected an array of sink specs such as "ndjson:events.ndjson", got "ndjson:x"'],
  ])('refuses %s', (_what, doc, message) => expect(() => readConfig(doc, 'c.json')).toThrow(message));

  it('reads the default sinks of conmon process from conmon.sinks', () => {
    expect(readConfig({ conmon: { sinks: ['ndjson:events.ndjson', 'syslog+tcp://siem:6514'] } }, 'c.json').sinks).toEqual(['ndjson:events.ndjson', 'syslog+tcp://siem:6514']);
  });

  it('resolves oscal_schemas against the config file\'s directory', () => {
    expect(readConfig({ oscal_schemas: 'oscal/schemas' }, '/etc/svc/c.json').oscalSchemas).toBe('/etc/svc/oscal/schemas');
    expect(readConfig({}, '/etc/svc/c.json').oscalSchemas).toBeUndefined();
  });

  it('refuses overrides of KSIs and families the catalog does not have', () => {
    expect(() => new BundledCatalogSource({ file: 'c.json', owners: {}, ksis: { 'KSI-ZZ-01': {} } }).catalog()).toThrow('c.json: ksis.KSI-ZZ-01: not a KSI of the built-in catalog (svc ksi list shows them); see docs/configuration.md');
    expect(() => new BundledCatalogSource({ file: 'c.json', owners: { PM: 'a@b.example' }, ksis: {} }).catalog()).toThrow('c.json: owners.PM: not a family of the catalog');
  });
});
