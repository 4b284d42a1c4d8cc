import fc from 'fast-check';
import type { CertificateAuthority } from '../../../../src/domain/trust/issuer-reference';
import { agencyPatterns } from '../../../../src/domain/trust/agency-patterns';
import { formatName, parseName, sameName } from '../../../../src/domain/trust/distinguished-name';

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

  it('compares exactly: RDN by RDN in order, types by OID, values character for character; a multi-valued RDN in any order', () => {
    const issuer = parseName('CN=Examples Issuing CA,O=Department of Examples,C=US');
    expect(sameName(issuer, parseName('cn = Examples Issuing CA , o=Department of Examples, 2.5.4.6=US'))).toBe(true);
    expect(sameName(issuer, parseName('cn=examples issuing ca,o=DEPARTMENT OF EXAMPLES,c=us'))).toBe(false);
    expect(sameName(issuer, parseName('CN=Examples  Issuing CA,O=Department of Examples,C=US'))).toBe(false);
    expect(sameName(issuer, parseName('C=US,O=Department of Examples,CN=Examples Issuing CA'))).toBe(false);
    expect(sameName(issuer, parseName('CN=Examples Issuing CA,O=Department of Samples,C=US'))).toBe(false);
    expect(sameName(issuer, parseName('CN=Examples Issuing CA,C=US'))).toBe(false);
    expect(sameName(parseName('CN=a+UID=b'), parseName('UID=b+CN=a'))).toBe(true);
  });
});

const ca = (n: number, subject: string): CertificateAuthority => ({ subject, fingerprint256: fingerprint(n), spki256: Buffer.alloc(32, n).toString('base64') });
function fingerprint(n: number): string {
  return Array.from({ length: 32 }, () => n.toString(16).toUpperCase().padStart(2, '0')).join(':');
}

describe('agency patterns (CDS-TRC-USH)', () => {
  // The API trusts the Department of Examples' CA (named by subject in the profile), the Agency of Samples' CA (named by
  // fingerprint) and the Bureau of Tests' CA (named by key).
  const EXAMPLES_CA = ca(1, 'CN=Examples CA,O=Department of Examples,C=US');
  const SAMPLES_CA = ca(2, 'CN=Samples CA,O=Agency of Samples,C=US');
  const TESTS_CA = ca(3, 'CN=Tests CA,O=Bureau of Tests,C=US');
  const trusted = { file: 'clients.pem', authorities: [EXAMPLES_CA, SAMPLES_CA, TESTS_CA] };
  const patterns = agencyPatterns(
    [
      {
        name: 'Department of Examples',
        realms: ['EXAMPLES.GOV'],
        issuers: ['CN=Examples CA,O=Department of Examples,C=US'],
        domains: ['examples.gov', 'EXAMPLES'],
      },
      { name: 'Agency of Samples', realms: [], issuers: [`sha256 Fingerprint=${SAMPLES_CA.fingerprint256}`], domains: ['samples.gov'] },
      { name: 'Bureau of Tests', realms: [], issuers: [`sha256//${TESTS_CA.spki256}`], domains: [] },
    ],
    'svc.config.json',
    trusted,
  );
  // A sub-CA the Agency of Samples' CA minted with the Department of Examples' CA's very name.
  const IMPOSTOR_SUB_CA = ca(9, EXAMPLES_CA.subject);

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
    [{ method: 'mtls', name: 'erin@examples.gov', authorities: [EXAMPLES_CA] }, 'Department of Examples'],
    [{ method: 'mtls', name: 'sam@samples.gov', authorities: [SAMPLES_CA] }, 'Agency of Samples'],
    [{ method: 'mtls', name: 'tess@tests.gov', authorities: [TESTS_CA] }, 'Bureau of Tests'],
    [{ method: 'mtls', name: 'mallory@samples.gov', authorities: [IMPOSTOR_SUB_CA, SAMPLES_CA] }, 'Agency of Samples'],
    [{ method: 'mtls', name: 'erin@examples.gov', authorities: [ca(8, 'CN=Other CA,O=Department of Examples,C=US')] }, undefined],
    [{ method: 'mtls', name: 'erin@examples.gov' }, undefined],
  ] as const)('%j is %s', (caller, agency) => {
    expect(patterns.agencyOf(caller)).toBe(agency);
  });

  it("recognizes a certificate by the CA nearest it in its chain: an agency's sub-CA under another agency's root is the sub-CA's agency", () => {
    expect(patterns.agencyOf({ method: 'mtls', name: 'x', authorities: [SAMPLES_CA, EXAMPLES_CA] })).toBe('Agency of Samples');
    expect(patterns.agencyOf({ method: 'mtls', name: 'x', authorities: [ca(7, 'CN=Sub'), EXAMPLES_CA] })).toBe('Department of Examples');
  });

  it("never takes a CA for an agency's by a name it copies, in any case, spacing or RDN order (property)", () => {
    const variants = fc.constantFrom(
      EXAMPLES_CA.subject,
      EXAMPLES_CA.subject.toLowerCase(),
      EXAMPLES_CA.subject.toUpperCase(),
      'C=US,O=Department of Examples,CN=Examples CA',
      'CN=Examples  CA,O=Department of Examples,C=US',
      'CN=Examples CA, O=Department of Examples, C=US',
    );
    fc.assert(
      fc.property(variants, fc.integer({ min: 10, max: 250 }), (subject, n) => {
        expect(patterns.agencyOf({ method: 'mtls', name: 'mallory@samples.gov', authorities: [ca(n, subject)] })).toBeUndefined();
      }),
    );
  });

  it('compares realms and domains with ASCII-only case folding: a KELVIN SIGN or a LONG S never folds into K or s (property)', () => {
    expect(patterns.agencyOf({ method: 'negotiate', name: 'alice@EXAMPLES.GOV' })).toBe('Department of Examples');
    expect(patterns.agencyOf({ method: 'negotiate', name: 'alice@EXAMPLEſ.GOV' })).toBeUndefined();
    expect(patterns.agencyOf({ method: 'proxy', name: 'dana@ſamples.gov' })).toBeUndefined();
    const lookalikes: Record<string, string> = { k: '\u212A', s: '\u017F', i: '\u0130' };
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }), (swaps) => {
        const domain = [...'samples.gov'].map((c, i) => (swaps[i] && lookalikes[c] !== undefined ? lookalikes[c] : swaps[i] ? c.toUpperCase() : c)).join('');
        const folded = [...domain].every((c) => c.charCodeAt(0) < 128);
        expect(patterns.agencyOf({ method: 'proxy', name: `sam@${domain}` })).toBe(folded ? 'Agency of Samples' : undefined);
      }),
    );
  });

  it('each method looks only at its own patterns: a realm is no domain, a domain no realm, and no name is an issuer', () => {
    expect(patterns.agencyOf({ method: 'proxy', name: 'alice@EXAMPLES.GOV' })).toBe('Department of Examples'); // examples.gov is also a domain
    expect(agencyPatterns([{ name: 'A', realms: ['A.GOV'], issuers: [], domains: [] }], 'f').agencyOf({ method: 'proxy', name: 'x@A.GOV' })).toBeUndefined();
    expect(
      agencyPatterns([{ name: 'A', realms: [], issuers: [], domains: ['a.gov'] }], 'f').agencyOf({ method: 'negotiate', name: 'x@A.GOV' }),
    ).toBeUndefined();
    expect(
      agencyPatterns([{ name: 'A', realms: [], issuers: [], domains: ['a.gov'] }], 'f').agencyOf({
        method: 'mtls',
        name: 'x@a.gov',
        authorities: [EXAMPLES_CA],
      }),
    ).toBeUndefined();
  });

  it('without mutual TLS (no trusted CAs) an issuer recognizes nobody', () => {
    const without = agencyPatterns([{ name: 'A', realms: [], issuers: [EXAMPLES_CA.subject, EXAMPLES_CA.fingerprint256], domains: [] }], 'f');
    expect(without.agencyOf({ method: 'mtls', name: 'x', authorities: [EXAMPLES_CA] })).toBeUndefined();
  });

  it('the same agency may list a pattern twice; two agencies may not share one, named by subject, fingerprint or key alike', () => {
    expect(agencyPatterns([{ name: 'A', realms: ['A.GOV', 'a.gov'], issuers: [], domains: [] }], 'f').size).toBe(1);
    expect(() =>
      agencyPatterns(
        [
          { name: 'A', realms: [], issuers: [], domains: ['a.gov'] },
          { name: 'B', realms: [], issuers: [], domains: ['A.GOV'] },
        ],
        'f',
      ),
    ).toThrow(
      'f: fedramp.agencies[1].domains[0]: "A.GOV" is also fedramp.agencies[0].domains[0]; a realm, issuer or domain recognizes one agency: keep it under one; see docs/api.md (agency access)',
    );
    expect(() =>
      agencyPatterns(
        [
          { name: 'A', realms: [], issuers: [EXAMPLES_CA.subject], domains: [] },
          { name: 'B', realms: [], issuers: [EXAMPLES_CA.fingerprint256.replace(/:/g, '')], domains: [] },
        ],
        'f',
        trusted,
      ),
    ).toThrow(
      `f: fedramp.agencies[1].issuers[0]: "${EXAMPLES_CA.fingerprint256.replace(/:/g, '')}" is also fedramp.agencies[0].issuers[0]; a realm, issuer or domain recognizes one agency: keep it under one; see docs/api.md (agency access)`,
    );
  });

  it('an issuer named by a subject no trusted CA has exactly is refused at start, naming the bundle', () => {
    expect(() => agencyPatterns([{ name: 'A', realms: [], issuers: ['cn=examples ca,o=department of examples,c=us'], domains: [] }], 'f', trusted)).toThrow(
      'f: fedramp.agencies[0].issuers[0]: "cn=examples ca,o=department of examples,c=us" is the subject of no CA certificate in clients.pem (auth.mtls.ca), and a name recognizes only a CA the API trusts, written exactly as its certificate has it; add the agency\'s CA certificate to that bundle, or name the CA by the CA certificate\'s SHA-256 fingerprint ("AB:CD:…", openssl x509 -noout -fingerprint -sha256), its key\'s "sha256//<base64>" (openssl x509 -noout -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64); see docs/api.md (agency access)',
    );
  });
});
