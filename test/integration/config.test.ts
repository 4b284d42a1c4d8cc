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
    expect(loadConfig({}, dir)).toEqual({
      governance: { sla_days: { Critical: 7, High: 14, Medium: 30, Low: 60 }, unmapped_owner: 'compliance-team@agency.example' },
      owners: {},
      ksis: {},
      sinks: [],
    });
  });

  it('reads svc.config.json from the working directory, or the file SVC_CONFIG names', () => {
    writeFileSync(
      join(dir, 'svc.config.json'),
      JSON.stringify({
        owners: { AC: 'iam@x.example', unmapped: 'grc@x.example' },
        sla_days: { Low: 90 },
        ksis: { 'KSI-AC-02': { severity: 'High', frequency_days: 7 } },
      }),
    );
    const config = loadConfig({}, dir);
    expect(config).toMatchObject({
      owners: { AC: 'iam@x.example' },
      governance: { sla_days: { Low: 90, Critical: 7 }, unmapped_owner: 'grc@x.example' },
      ksis: { 'KSI-AC-02': { severity: 'High', frequency_days: 7 } },
    });
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
    [
      'an unknown setting',
      { owner: {} },
      'c.json: owner: unknown setting (known: owners, sla_days, ksis, oscal_schemas, fedramp_schemas, conmon, fedramp, vulnerabilities, agency); see docs/configuration.md',
    ],
    ['an owner that is no mailbox', { owners: { AC: 'team' } }, 'c.json: owners.AC: expected a mailbox, got "team"'],
    ['an unknown severity', { sla_days: { Severe: 1 } }, 'c.json: sla_days.Severe: expected one of Critical, High, Medium, Low'],
    ['a bad KSI value', { ksis: { 'KSI-AC-02': { severity: 'Urgent' } } }, 'c.json: ksis.KSI-AC-02.severity: cannot set "Urgent"'],
    ['not an object', [], 'c.json: $: expected an object, got an array'],
    ['an empty schema directory', { oscal_schemas: ' ' }, 'c.json: oscal_schemas: expected a directory path, got " "'],
    ['a conmon setting it does not know', { conmon: { sink: [] } }, 'c.json: conmon.sink: unknown setting (known: sinks, retention)'],
    ['a retention that is not an object', { conmon: { retention: 90 } }, 'c.json: conmon.retention: expected an object such as {"keep_days": 90}'],
    [
      'a retention setting it does not know',
      { conmon: { retention: { keep_days: 90, days: 3 } } },
      'c.json: conmon.retention.days: unknown setting (known: keep_days)',
    ],
    [
      'a keep_days under a month',
      { conmon: { retention: { keep_days: 30 } } },
      'c.json: conmon.retention.keep_days: expected a whole number of days, at least 31, got 30',
    ],
    [
      'a keep_days that is not a whole number',
      { conmon: { retention: { keep_days: '90' } } },
      'c.json: conmon.retention.keep_days: expected a whole number of days, at least 31, got "90"',
    ],
    [
      'sinks that are not a list of specs',
      { conmon: { sinks: 'ndjson:x' } },
      'c.json: conmon.sinks: expected an array of sink specs such as "ndjson:events.ndjson", got "ndjson:x"',
    ],
  ])('refuses %s', (_what, doc, message) => expect(() => readConfig(doc, 'c.json')).toThrow(message));

  it('reads conmon.retention, and has none without it', () => {
    expect(readConfig({ conmon: { retention: { keep_days: 90 } } }, 'c.json').retention).toEqual({ keep_days: 90 });
    expect(readConfig({ conmon: { sinks: [] } }, 'c.json')).not.toHaveProperty('retention');
  });

  it('reads the vulnerabilities section: the KEV catalog resolved against the file, the policy over the defaults', () => {
    const config = readConfig(
      { vulnerabilities: { kev_catalog: 'kev/known.json', policy: { internet_reachable: ['*.example.com'], default_n: 'N2' } } },
      '/etc/svc/c.json',
    );
    expect(config.vulnerabilities).toMatchObject({
      kev_catalog: '/etc/svc/kev/known.json',
      policy: { internet_reachable: ['*.example.com'], default_n: 2, n_by_severity: { critical: 5 } },
    });
    expect(() => readConfig({ vulnerabilities: { kev: 'x' } }, 'c.json')).toThrow(
      "c.json: vulnerabilities.kev: unknown key; the section's keys are kev_catalog and policy; see docs/configuration.md",
    );
    expect(() => readConfig({ vulnerabilities: { policy: { default_n: 9 } } }, 'c.json')).toThrow(
      'c.json: vulnerabilities.policy.default_n: number 9 is not an N-rating; write 0 to 5 (or "N0" to "N5"; N0 where the CR26 release in use offers it); see docs/configuration.md',
    );
  });

  it('reads the default sinks of conmon process from conmon.sinks', () => {
    expect(readConfig({ conmon: { sinks: ['ndjson:events.ndjson', 'syslog+tcp://siem:6514'] } }, 'c.json').sinks).toEqual([
      'ndjson:events.ndjson',
      'syslog+tcp://siem:6514',
    ]);
  });

  it("resolves oscal_schemas against the config file's directory", () => {
    expect(readConfig({ oscal_schemas: 'oscal/schemas' }, '/etc/svc/c.json').oscalSchemas).toBe('/etc/svc/oscal/schemas');
    expect(readConfig({}, '/etc/svc/c.json').oscalSchemas).toBeUndefined();
  });

  it("reads the FedRAMP profile (fedramp), its file paths resolved against the config file's directory", () => {
    const fedramp = {
      type: 'Rev5',
      class: 'b',
      path: 'agency',
      status: 'certified',
      fedramp_id: 'FR2612345678',
      package_uri: 'https://trust.example.com/fedramp/cpo.json',
      evidence_base_uri: 'https://trust.example.com/fedramp/evidence/',
      accountable_official: { name: 'Ada Lovelace', title: 'CISO', email: 'ciso@example.com' },
      cpo: { serviceIdentification: { name: 'Example Cloud' } },
      statements: 'fedramp/statements.md',
      assessor_summary: '/srv/summary.md',
      next_assessment: '2027-05-15',
      agencies: [{ name: 'Agency One', realms: ['AGENCY.GOV'], domains: ['agency.gov'] }],
    };
    expect(readConfig({ fedramp }, '/etc/svc/c.json').fedramp).toEqual({
      ...fedramp,
      type: 'rev5',
      class: 'B',
      statements: '/etc/svc/fedramp/statements.md',
      agencies: [{ name: 'Agency One', realms: ['AGENCY.GOV'], issuers: [], domains: ['agency.gov'] }],
    });
    expect(readConfig({}, 'c.json').fedramp).toBeUndefined();
    expect(readConfig({ fedramp: {} }, 'c.json').fedramp).toEqual({});
  });

  it.each<[string, unknown, string]>([
    ['a class outside A-D', { class: 'E' }, 'c.json: fedramp.class: "E" is not a Certification Class; write A, B, C or D; see docs/configuration.md'],
    [
      'a type outside 20x and rev5',
      { type: '21x' },
      'c.json: fedramp.type: "21x" is not a certification type; write "20x" or "rev5"; see docs/configuration.md',
    ],
    ['a path in the wrong case', { path: 'Program' }, 'c.json: fedramp.path: "Program" is not a certification path; write "program" or "agency"'],
    [
      'a status it does not know',
      { status: 'authorized' },
      'c.json: fedramp.status: "authorized" is not a certification status; write "applying" or "certified"',
    ],
    [
      'a date that is not one',
      { next_assessment: '2027-02-30' },
      'c.json: fedramp.next_assessment: "2027-02-30" is not a date from 1970-01-01 through 2999-12-31; write the date of the next assessment as YYYY-MM-DD',
    ],
    [
      'a date svc does not count to',
      { next_assessment: '9999-12-31' },
      'c.json: fedramp.next_assessment: "9999-12-31" is not a date from 1970-01-01 through 2999-12-31; write the date of the next assessment as YYYY-MM-DD',
    ],
    [
      'a relative URI',
      { package_uri: 'cpo.json' },
      'c.json: fedramp.package_uri: "cpo.json" is not an absolute URL; write the URI of the Certification Package Overview',
    ],
    [
      'a URL without its //',
      { package_uri: 'https:trust.example.com/cpo.json' },
      'c.json: fedramp.package_uri: "https:trust.example.com/cpo.json" is not written as an absolute URL, https://host/path; write the URI',
    ],
    [
      'a javascript: URI',
      { package_uri: 'javascript:alert(1)' },
      'c.json: fedramp.package_uri: "javascript:alert(1)" is a javascript: URL, not an https one; write the URI of the Certification Package Overview, such as "https://trust.example.com/fedramp/cpo.json"; see docs/configuration.md',
    ],
    [
      'a data: URI',
      { evidence_base_uri: 'data:text/html,<script>alert(1)</script>' },
      'c.json: fedramp.evidence_base_uri: "data:text/html,<script>alert(1)</script>" is a data: URL, not an https one; write the URI evidence links start with',
    ],
    ['a file: URI', { package_uri: 'file:///etc/passwd' }, 'c.json: fedramp.package_uri: "file:///etc/passwd" is a file: URL, not an https one'],
    [
      'plain http to another host',
      { package_uri: 'http://trust.example.com/cpo.json' },
      'c.json: fedramp.package_uri: "http://trust.example.com/cpo.json" is a plain-http URL, which only localhost may use; serve it over https; write the URI',
    ],
    [
      'credentials in the URL',
      { package_uri: 'https://admin:s3cret@trust.example.com/cpo.json' },
      'c.json: fedramp.package_uri: "https://***@trust.example.com/cpo.json" holds credentials (user:password@), which every document would publish; write the URI',
    ],
    [
      'a query',
      { evidence_base_uri: 'https://trust.example.com/fedramp?x=1' },
      'c.json: fedramp.evidence_base_uri: "https://trust.example.com/fedramp?x=1" has a query or fragment (? or #); write the URL without it;',
    ],
    [
      'a fragment',
      { package_uri: 'https://trust.example.com/cpo.json#top' },
      'c.json: fedramp.package_uri: "https://trust.example.com/cpo.json#top" has a query or fragment (? or #); write the URL without it;',
    ],
    [
      'a space or a control character',
      { package_uri: 'https://trust.example.com/c po.json\n' },
      'c.json: fedramp.package_uri: "https://trust.example.com/c po.json\\n" holds a space, a control or a non-ASCII character, which a URL writes percent-encoded;',
    ],
    ['a URL that is no text', { package_uri: 42 }, 'c.json: fedramp.package_uri: number 42 is not a URL; write the URI of the Certification Package Overview'],
    [
      'an official without an email',
      { accountable_official: { name: 'A', title: 'B' } },
      "c.json: fedramp.accountable_official.email: missing; write the official's email",
    ],
    ['an agency without a name', { agencies: [{ realms: [] }] }, "c.json: fedramp.agencies[0].name: missing; write the agency's name"],
    [
      'a key the profile does not have',
      { klass: 'B' },
      "c.json: fedramp.klass: unknown key; the profile's keys are type, class, path, status, fedramp_id, package_uri",
    ],
    ['a section that is no object', 'B', 'c.json: fedramp: expected an object, got "B"'],
  ])('refuses a FedRAMP profile with %s', (_what, fedramp, message) =>
    expect(() => readConfig({ fedramp }, 'c.json')).toThrow(expect.objectContaining({ code: 'invalid-config', message: expect.stringContaining(message) })),
  );

  it('takes an https URL with a port and a path, and plain http for localhost, 127.0.0.1 and [::1] (a trust center tried locally)', () => {
    for (const uri of [
      'https://trust.example.com:8443/fedramp/cpo.json',
      'http://localhost:8080/fedramp/cpo.json',
      'http://127.0.0.1/cpo.json',
      'http://[::1]:3000/fedramp',
      'https://xn--bcher-kva.example/cpo.json',
    ]) {
      expect(readConfig({ fedramp: { package_uri: uri, evidence_base_uri: uri } }, 'c.json').fedramp).toEqual({ package_uri: uri, evidence_base_uri: uri });
    }
  });

  it('refuses overrides of KSIs and families the catalog does not have', () => {
    expect(() => new BundledCatalogSource({ file: 'c.json', owners: {}, ksis: { 'KSI-ZZ-01': {} } }).catalog()).toThrow(
      'c.json: ksis.KSI-ZZ-01: not a KSI of the built-in catalog (svc ksi list shows them); see docs/configuration.md',
    );
    expect(() => new BundledCatalogSource({ file: 'c.json', owners: { PM: 'a@b.example' }, ksis: {} }).catalog()).toThrow(
      'c.json: owners.PM: not a family of the catalog',
    );
  });
});
