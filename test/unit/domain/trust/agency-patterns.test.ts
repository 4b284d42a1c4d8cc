import { agencyPatterns } from '../../../../src/domain/trust/agency-patterns';
import { formatName, parseName, sameName } from '../../../../src/domain/trust/distinguished-name';
import { fieldLabel, trustPage } from '../../../../src/domain/trust/trust-page';

describe('distinguished names (RFC 4514)', () => {
  it('reads and writes most specific first, escaping what RFC 4514 escapes', () => {
    const name = parseName('CN=Examples Issuing CA,OU=PKI\\, Issuing,O=Department of Examples,C=US');
    expect(name).toEqual([
      [{ oid: '2.5.4.3', value: 'Examples Issuing CA' }],
      [{ oid: '2.5.4.11', value: 'PKI, Issuing' }],
      [{ oid: '2.5.4.10', value: 'Department of Examples' }],
      [{ oid: '2.5.4.6', value: 'US' }],
    ]);
    expect(formatName(name)).toBe('CN=Examples Issuing CA,OU=PKI\\, Issuing,O=Department of Examples,C=US');
    expect(formatName([[{ oid: '2.5.4.3', value: ' #lead+trail ' }]])).toBe('CN=\\ #lead\\+trail\\ ');
    expect(formatName([[{ oid: '1.2.3.4', value: '#0403616263' }]])).toBe('1.2.3.4=#0403616263');
  });

  it('reads multi-valued RDNs, hex values, UTF-8 escapes, dotted OIDs and the names people write', () => {
    expect(parseName('cn=Ana+uid=ana, dc=example , DC=gov')).toEqual([
      [
        { oid: '2.5.4.3', value: 'Ana' },
        { oid: '0.9.2342.19200300.100.1.1', value: 'ana' },
      ],
      [{ oid: '0.9.2342.19200300.100.1.25', value: 'example' }],
      [{ oid: '0.9.2342.19200300.100.1.25', value: 'gov' }],
    ]);
    expect(parseName('CN=Jos\\C3\\A9,E=pki@agency.gov,2.5.4.97=#0c03616263')).toEqual([
      [{ oid: '2.5.4.3', value: 'José' }],
      [{ oid: '1.2.840.113549.1.9.1', value: 'pki@agency.gov' }],
      [{ oid: '2.5.4.97', value: '#0c03616263' }],
    ]);
  });

  it.each([
    ['', 'empty name'],
    ['CN', 'expected = after CN at character 3'],
    ['CN=a,', 'expected an attribute type (CN, O, OU, C, … or a dotted OID) at character 6'],
    ['CN="a"', 'quoted values are not RFC 4514; escape special characters with \\ instead at character 4'],
    ['CN=a\\', 'a \\ ends the name at character 5'],
    ['CN=\\FF', 'the escaped bytes of a value are not UTF-8 at character 7'],
    ['CN=', 'empty value at character 4'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => parseName(text)).toThrow(message);
  });

  it('compares RDN by RDN, types by OID, values without case or extra spaces, in either order', () => {
    const issuer = parseName('CN=Examples Issuing CA,O=Department of Examples,C=US');
    expect(sameName(issuer, parseName('commonName=x'.replace('commonName=x', 'cn=examples  issuing ca, o=DEPARTMENT OF EXAMPLES, c=us')))).toBe(true);
    expect(sameName(issuer, parseName('C = US, O = Department of Examples, CN = Examples Issuing CA'))).toBe(true);
    expect(sameName(issuer, parseName('CN=Examples Issuing CA,O=Department of Samples,C=US'))).toBe(false);
    expect(sameName(issuer, parseName('CN=Examples Issuing CA,C=US'))).toBe(false);
    expect(sameName(parseName('CN=a+UID=b'), parseName('UID=b+CN=a'))).toBe(true);
  });
});

describe('agency patterns (CDS-TRC-USH)', () => {
  const patterns = agencyPatterns(
    [
      { name: 'Department of Examples', realms: ['EXAMPLES.GOV'], issuers: ['CN=Examples CA,O=Department of Examples,C=US'], domains: ['examples.gov', 'EXAMPLES'] },
      { name: 'Agency of Samples', realms: [], issuers: [], domains: ['samples.gov'] },
    ],
    'svc.config.json',
  );

  it.each([
    [{ method: 'negotiate', name: 'alice@EXAMPLES.GOV' }, 'Department of Examples'],
    [{ method: 'negotiate', name: 'alice@examples.gov' }, 'Department of Examples'],
    [{ method: 'negotiate', name: 'alice@SAMPLES.GOV' }, undefined],
    [{ method: 'negotiate', name: 'alice' }, undefined],
    [{ method: 'proxy', name: 'EXAMPLES\\dana' }, 'Department of Examples'],
    [{ method: 'proxy', name: 'dana@Examples.Gov' }, 'Department of Examples'],
    [{ method: 'proxy', name: 'sam@samples.gov' }, 'Agency of Samples'],
    [{ method: 'proxy', name: 'dana' }, undefined],
    [{ method: 'proxy', name: 'dana@EXAMPLES.GOV.EVIL' }, undefined],
    [{ method: 'mtls', name: 'erin@examples.gov', issuer: 'CN=Examples CA,O=Department of Examples,C=US' }, 'Department of Examples'],
    [{ method: 'mtls', name: 'erin@examples.gov', issuer: 'CN=Other CA,O=Department of Examples,C=US' }, undefined],
    [{ method: 'mtls', name: 'erin@examples.gov' }, undefined],
  ] as const)('%j is %s', (caller, agency) => {
    expect(patterns.agencyOf(caller)).toBe(agency);
  });

  it('each method looks only at its own patterns: a realm is no domain, a domain no realm', () => {
    expect(patterns.agencyOf({ method: 'proxy', name: 'alice@EXAMPLES.GOV' })).toBe('Department of Examples'); // examples.gov is also a domain
    expect(agencyPatterns([{ name: 'A', realms: ['A.GOV'], issuers: [], domains: [] }], 'f').agencyOf({ method: 'proxy', name: 'x@A.GOV' })).toBeUndefined();
    expect(agencyPatterns([{ name: 'A', realms: [], issuers: [], domains: ['a.gov'] }], 'f').agencyOf({ method: 'negotiate', name: 'x@A.GOV' })).toBeUndefined();
    expect(agencyPatterns([{ name: 'A', realms: [], issuers: [], domains: ['a.gov'] }], 'f').agencyOf({ method: 'mtls', name: 'x@a.gov', issuer: 'CN=CA' })).toBeUndefined();
  });

  it('the same agency may list a pattern twice; two agencies may not share one', () => {
    expect(agencyPatterns([{ name: 'A', realms: ['A.GOV', 'a.gov'], issuers: [], domains: [] }], 'f').size).toBe(1);
    expect(() => agencyPatterns([{ name: 'A', realms: [], issuers: [], domains: ['a.gov'] }, { name: 'B', realms: [], issuers: [], domains: ['A.GOV'] }], 'f')).toThrow(
      'f: fedramp.agencies[1].domains[0]: "A.GOV" is also fedramp.agencies[0].domains[0]; a realm, issuer or domain recognizes one agency: keep it under one; see docs/api.md (agency access)',
    );
  });
});

describe('the trust page model', () => {
  it.each([
    ['certificationPackageOverviewUri', 'Certification package overview URI'],
    ['fedRampPackageId', 'FedRAMP package ID'],
    ['ueiNumber', 'UEI number'],
    ['isInternetReachable', 'Is internet reachable'],
    ['reportPeriod', 'Report period'],
  ])('labels %s as %s', (key, label) => {
    expect(fieldLabel(key)).toBe(label);
  });

  it('lays every value of the document out: fields, a section per object, tables for lists of objects, lists for lists of values', () => {
    const page = trustPage({
      title: 'T',
      facts: [],
      document: { uri: 'https://x.example', period: { from: '2026-01-01', to: '2026-02-01' }, items: [{ id: 'a', n: 2, at: { when: '2026-01-02T00:00:00Z' }, tags: ['x', 'y'] }, { id: 'b' }], notes: ['one', 'two'], none: [] },
      generatedAt: '2026-02-01T00:00:00Z',
      tool: { name: 'svc', version: '0' },
    });
    expect(page.sections).toEqual([
      { kind: 'fields', id: 's-summary', heading: 'Summary', fields: [{ label: 'URI', value: 'https://x.example' }] },
      { kind: 'fields', id: 's-period', heading: 'Period', fields: [{ label: 'From', value: '2026-01-01' }, { label: 'To', value: '2026-02-01' }] },
      {
        kind: 'table',
        id: 's-items',
        heading: 'Items',
        columns: [
          { label: 'ID', kind: 'text' },
          { label: 'N', kind: 'num' },
          { label: 'At › When', kind: 'date' },
          { label: 'Tags', kind: 'text' },
        ],
        rows: [
          ['a', 2, '2026-01-02T00:00:00Z', 'x; y'],
          ['b', '', '', ''],
        ],
        empty: 'none listed',
      },
      { kind: 'list', id: 's-notes', heading: 'Notes', items: ['one', 'two'], empty: 'none listed' },
      { kind: 'list', id: 's-none', heading: 'None', items: [], empty: 'none listed' },
    ]);
  });
});
