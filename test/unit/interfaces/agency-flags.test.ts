import { authFlags, parseAuthFlags } from '../../../src/interfaces/cli/agency-flags';

const CWD = '/home/agency';

describe('parseAuthFlags: how svc agency add and import authenticate', () => {
  it.each<[string, Parameters<typeof parseAuthFlags>[0], ReturnType<typeof parseAuthFlags>]>([
    ['none', { auth: 'none' }, { auth: { kind: 'none' } }],
    ['none, with the CA to trust (made absolute)', { auth: 'none', ca: 'pki/ca.pem' }, { auth: { kind: 'none' }, ca: '/home/agency/pki/ca.pem' }],
    ['negotiate', { auth: 'negotiate' }, { auth: { kind: 'negotiate' } }],
    ['negotiate with the service name', { auth: 'negotiate', spn: 'HTTP@tc.acme.example' }, { auth: { kind: 'negotiate', spn: 'HTTP@tc.acme.example' } }],
    [
      'a client certificate and key',
      { auth: 'cert', cert: 'agency.crt', key: '/keys/agency.key', ca: '../ca.pem' },
      { auth: { kind: 'cert', cert: '/home/agency/agency.crt', key: '/keys/agency.key' }, ca: '/home/ca.pem' },
    ],
    ['a bearer token file', { auth: 'token', 'token-file': './acme.token' }, { auth: { kind: 'token', tokenFile: '/home/agency/acme.token' } }],
  ])('%s', (_what, flags, parsed) => expect(parseAuthFlags(flags, CWD)).toEqual(parsed));

  it.each<[Parameters<typeof parseAuthFlags>[0], string]>([
    [{ auth: 'cert', key: 'k.pem' }, '--auth cert needs --cert'],
    [{ auth: 'cert', cert: 'c.pem' }, '--auth cert needs --key'],
    [{ auth: 'token' }, '--auth token needs --token-file'],
    [{ auth: 'none', spn: 'HTTP@x.example' }, '--spn goes with --auth negotiate, not --auth none'],
    [{ auth: 'none', cert: 'c.pem' }, '--cert goes with --auth cert, not --auth none'],
    [{ auth: 'negotiate', key: 'k.pem' }, '--key goes with --auth cert, not --auth negotiate'],
    [{ auth: 'cert', cert: 'c.pem', key: 'k.pem', 'token-file': 't' }, '--token-file goes with --auth token, not --auth cert'],
    [{ auth: 'token', 'token-file': 't', spn: 'HTTP@x.example' }, '--spn goes with --auth negotiate, not --auth token'],
  ])('%j: %s', (flags, message) => {
    expect(() => parseAuthFlags(flags, CWD)).toThrow(expect.objectContaining({ kind: 'usage', code: 'agency-auth-flag', message }));
  });

  it('the flags: --auth one of the four kinds, none by default', () => {
    expect([authFlags.auth.options, authFlags.auth.default]).toEqual([['none', 'negotiate', 'cert', 'token'], 'none']);
  });
});
