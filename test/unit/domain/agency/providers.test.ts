import {
  DEFAULT_PULL_SETTINGS,
  normalizeTrustCenterUrl,
  providerConfigEntry,
  readAgencySettings,
  type AgencyProvider,
  type AgencySettings,
} from '../../../../src/domain/agency/providers';

/** The config reader's fail: throws `<path>: <problem>` as svc.config.json's reader words it; paths resolved against /etc/svc. */
const fail = (path: string, problem: string): never => {
  throw new Error(`${path}: ${problem}`);
};
const read = (value: unknown): AgencySettings => readAgencySettings(value, fail, (path) => (path.startsWith('/') ? path : `/etc/svc/${path}`));
const provider = (extra: Record<string, unknown> = {}) => ({ name: 'acme', url: 'https://trust.acme.example', ...extra });
const withProvider = (extra: Record<string, unknown>) => ({ providers: [provider(extra)] });

describe('normalizeTrustCenterUrl', () => {
  it.each([
    ['https://trust.acme.example', 'https://trust.acme.example'],
    ['https://trust.acme.example/', 'https://trust.acme.example'],
    ['https://Trust.ACME.example:443/tc//', 'https://trust.acme.example/tc'],
    ['http://127.0.0.1:8443/base/', 'http://127.0.0.1:8443/base'],
  ])('%s is kept as %s', (given, kept) => expect(normalizeTrustCenterUrl(given)).toEqual({ url: kept }));

  it.each([
    ['trust.acme.example', '"trust.acme.example" is not a URL; give the trust center\'s base, such as https://trust.example.com'],
    ['ftp://trust.acme.example', 'ftp: is not http or https'],
    ['https://agency:secret@trust.acme.example', 'the URL holds credentials; give them with --auth instead'],
    ['https://agency@trust.acme.example', 'the URL holds credentials; give them with --auth instead'],
    ['https://trust.acme.example/?token=x', 'the URL holds a query or fragment; give the trust center base only'],
    ['https://trust.acme.example/#top', 'the URL holds a query or fragment; give the trust center base only'],
  ])('%s: %s', (given, problem) => expect(normalizeTrustCenterUrl(given)).toEqual({ problem }));
});

describe('readAgencySettings (agency of svc.config.json)', () => {
  it('an empty section: no providers, no name, the default pull settings', () => {
    expect(read({})).toEqual({ providers: [], pull: DEFAULT_PULL_SETTINGS });
    expect(DEFAULT_PULL_SETTINGS).toEqual({ concurrency: 8, timeoutMs: 15_000, retries: 2, maxDocumentBytes: 268_435_456 });
  });

  it('every setting read: names, URLs normalized, paths resolved against the file, each kind of authentication', () => {
    const settings = read({
      name: 'Dept of Examples',
      providers: [
        { name: 'acme', url: 'https://trust.acme.example/', fedramp_id: 'FR2611250001', class: 'B', ca: 'ca/acme.pem' },
        { name: 'beta.cloud', url: 'https://beta.example', auth: { kind: 'negotiate' } },
        { name: 'gamma_1', url: 'https://gamma.example', auth: { kind: 'negotiate', spn: 'HTTP@tc.gamma.example' } },
        { name: 'delta-2', url: 'https://delta.example', auth: { kind: 'cert', cert: 'pki/agency.crt', key: '/keys/agency.key' } },
        { name: 'E', url: 'https://e.example', auth: { kind: 'token', token_file: 'e.token' }, class: 'A' },
        { name: 'f', url: 'https://f.example', auth: { kind: 'none' }, fedramp_id: 'Acme Cloud (ACME)' },
      ],
      pull: { concurrency: 2, timeout_ms: 500, retries: 0, max_document_bytes: 1024 },
    });
    expect(settings).toEqual({
      name: 'Dept of Examples',
      providers: [
        { name: 'acme', url: 'https://trust.acme.example', fedrampId: 'FR2611250001', class: 'B', auth: { kind: 'none' }, ca: '/etc/svc/ca/acme.pem' },
        { name: 'beta.cloud', url: 'https://beta.example', auth: { kind: 'negotiate' } },
        { name: 'gamma_1', url: 'https://gamma.example', auth: { kind: 'negotiate', spn: 'HTTP@tc.gamma.example' } },
        { name: 'delta-2', url: 'https://delta.example', auth: { kind: 'cert', cert: '/etc/svc/pki/agency.crt', key: '/keys/agency.key' } },
        { name: 'E', url: 'https://e.example', class: 'A', auth: { kind: 'token', tokenFile: '/etc/svc/e.token' } },
        { name: 'f', url: 'https://f.example', fedrampId: 'Acme Cloud (ACME)', auth: { kind: 'none' } },
      ],
      pull: { concurrency: 2, timeoutMs: 500, retries: 0, maxDocumentBytes: 1024 },
    });
  });

  it('credentials go over https only (http to this machine for Negotiate and tokens); none goes anywhere', () => {
    expect(read({ providers: [{ name: 'a', url: 'http://localhost:8000', auth: { kind: 'negotiate' } }] }).providers[0]!.url).toBe('http://localhost:8000');
    expect(read({ providers: [{ name: 'a', url: 'http://public.example' }] }).providers[0]!.auth).toEqual({ kind: 'none' });
    expect(() => read({ providers: [{ name: 'a', url: 'http://public.example', auth: { kind: 'token', token_file: 't' } }] })).toThrow(
      "agency.providers[0].url: http://public.example is http: svc would send the bearer token in clear text; use the trust center's https URL (http only to one on this machine)",
    );
  });

  it('pull settings not given keep their defaults', () => {
    expect(read({ pull: { retries: 5 } }).pull).toEqual({ ...DEFAULT_PULL_SETTINGS, retries: 5 });
  });

  it.each<[string, unknown, string]>([
    ['not an object', [], 'agency: expected an object, got an array'],
    ['an unknown key', { providers: [], sinks: [] }, 'agency.sinks: unknown setting (known: name, providers, pull)'],
    ['a blank name', { name: '  ' }, 'agency.name: expected the agency\'s name, got "  "'],
    ['a name not a string', { name: 7 }, "agency.name: expected the agency's name, got number 7"],
    ['providers not a list', { providers: { acme: {} } }, 'agency.providers: expected an array of providers, got an object'],
    ['a provider not an object', { providers: ['acme'] }, 'agency.providers[0]: expected an object, got "acme"'],
    ['an unknown provider key', withProvider({ token: 'x' }), 'agency.providers[0].token: unknown setting (known: name, url, fedramp_id, class, auth, ca)'],
    [
      'a name with a slash',
      { providers: [provider({ name: '../acme' })] },
      'agency.providers[0].name: expected a name of letters, digits, ".", "_" and "-" (at most 64), got "../acme"',
    ],
    [
      'a name starting with a dot',
      { providers: [provider({ name: '.acme' })] },
      'agency.providers[0].name: expected a name of letters, digits, ".", "_" and "-" (at most 64), got ".acme"',
    ],
    [
      'a name of 65 characters',
      { providers: [provider({ name: 'a'.repeat(65) })] },
      `agency.providers[0].name: expected a name of letters, digits, ".", "_" and "-" (at most 64), got "${'a'.repeat(40)}..."`,
    ],
    [
      'no name',
      { providers: [{ url: 'https://x.example' }] },
      'agency.providers[0].name: expected a name of letters, digits, ".", "_" and "-" (at most 64), got nothing',
    ],
    ['no URL', { providers: [{ name: 'acme' }] }, "agency.providers[0].url: expected the trust center's base URL, got nothing"],
    [
      'a URL with a query',
      withProvider({ url: 'https://x.example/?a=1' }),
      'agency.providers[0].url: the URL holds a query or fragment; give the trust center base only',
    ],
    ['a blank FedRAMP ID', withProvider({ fedramp_id: ' ' }), 'agency.providers[0].fedramp_id: expected a FedRAMP ID such as FR2611250001, got " "'],
    [
      'a FedRAMP ID with a line break',
      withProvider({ fedramp_id: 'FR1\nFR2' }),
      'agency.providers[0].fedramp_id: expected a FedRAMP ID such as FR2611250001, got "FR1\\nFR2"',
    ],
    ['a class not of CR26', withProvider({ class: 'High' }), 'agency.providers[0].class: expected one of A, B, C, D, got "High"'],
    ['a lower-case class', withProvider({ class: 'b' }), 'agency.providers[0].class: expected one of A, B, C, D, got "b"'],
    ['a blank CA', withProvider({ ca: '' }), 'agency.providers[0].ca: expected the path of a PEM file of CA certificates, got ""'],
    [
      'the same name twice',
      { providers: [provider(), provider({ url: 'https://other.example' })] },
      'agency.providers[1].name: "acme" is named twice; give each provider its own name',
    ],
    ['auth not an object', withProvider({ auth: 'negotiate' }), 'agency.providers[0].auth: expected an object such as {"kind": "negotiate"}, got "negotiate"'],
    ['an unknown kind', withProvider({ auth: { kind: 'basic' } }), 'agency.providers[0].auth.kind: expected one of none, negotiate, cert, token, got "basic"'],
    ['no kind', withProvider({ auth: {} }), 'agency.providers[0].auth.kind: expected one of none, negotiate, cert, token, got nothing'],
    ['a key of another kind', withProvider({ auth: { kind: 'none', cert: 'a.pem' } }), 'agency.providers[0].auth.cert: not a setting of "none" (known: kind)'],
    [
      'a token given inline',
      withProvider({ auth: { kind: 'token', token: 'abc' } }),
      'agency.providers[0].auth.token: not a setting of "token" (known: kind, token_file)',
    ],
    [
      'a certificate without its key',
      withProvider({ auth: { kind: 'cert', cert: 'a.pem' } }),
      'agency.providers[0].auth.key: expected a file path, got nothing',
    ],
    ['a token file blank', withProvider({ auth: { kind: 'token', token_file: ' ' } }), 'agency.providers[0].auth.token_file: expected a file path, got " "'],
    [
      'an SPN without its host',
      withProvider({ auth: { kind: 'negotiate', spn: 'HTTP' } }),
      'agency.providers[0].auth.spn: expected a GSS service name such as HTTP@trust.example.com, got "HTTP"',
    ],
    [
      'negotiate with a key of cert',
      withProvider({ auth: { kind: 'negotiate', key: 'k.pem' } }),
      'agency.providers[0].auth.key: not a setting of "negotiate" (known: kind, spn)',
    ],
    ['pull not an object', { pull: 8 }, 'agency.pull: expected an object, got number 8'],
    [
      'an unknown pull setting',
      { pull: { parallel: 2 } },
      'agency.pull.parallel: unknown setting (known: concurrency, timeout_ms, retries, max_document_bytes)',
    ],
    ['no concurrency', { pull: { concurrency: 0 } }, 'agency.pull.concurrency: expected a whole number of at least 1, got number 0'],
    ['a fractional time-out', { pull: { timeout_ms: 1.5 } }, 'agency.pull.timeout_ms: expected a whole number of at least 1, got number 1.5'],
    ['negative retries', { pull: { retries: -1 } }, 'agency.pull.retries: expected a whole number of at least 0, got number -1'],
    ['a size as text', { pull: { max_document_bytes: '1MB' } }, 'agency.pull.max_document_bytes: expected a whole number of at least 1, got "1MB"'],
  ])('refuses %s', (_what, value, message) => expect(() => read(value)).toThrow(new Error(message)));
});

describe('providerConfigEntry: the provider as svc.config.json writes it', () => {
  it.each<[AgencyProvider, Record<string, unknown>]>([
    [
      { name: 'a', url: 'https://a.example', auth: { kind: 'none' } },
      { name: 'a', url: 'https://a.example', auth: { kind: 'none' } },
    ],
    [
      { name: 'b', url: 'https://b.example', fedrampId: 'FR1', class: 'C', auth: { kind: 'negotiate', spn: 'HTTP@b.example' }, ca: '/ca.pem' },
      { name: 'b', url: 'https://b.example', fedramp_id: 'FR1', class: 'C', auth: { kind: 'negotiate', spn: 'HTTP@b.example' }, ca: '/ca.pem' },
    ],
    [
      { name: 'c', url: 'https://c.example', auth: { kind: 'negotiate' } },
      { name: 'c', url: 'https://c.example', auth: { kind: 'negotiate' } },
    ],
    [
      { name: 'd', url: 'https://d.example', auth: { kind: 'cert', cert: '/d.crt', key: '/d.key' } },
      { name: 'd', url: 'https://d.example', auth: { kind: 'cert', cert: '/d.crt', key: '/d.key' } },
    ],
    [
      { name: 'e', url: 'https://e.example', auth: { kind: 'token', tokenFile: '/e.token' } },
      { name: 'e', url: 'https://e.example', auth: { kind: 'token', token_file: '/e.token' } },
    ],
  ])('%j', (p, entry) => {
    expect(providerConfigEntry(p)).toEqual(entry);
    // Read back (absolute paths stay as they are), it is the same provider.
    expect(readAgencySettings({ providers: [providerConfigEntry(p)] }, fail, (path) => path).providers).toEqual([p]);
  });
});
