import { spawnSync } from 'node:child_process';
import type { Request } from 'express';
import { Passport } from 'passport';
import { ConfigError } from '../../../../../src/domain/errors';
import { KERBEROS_INSTALL_COMMAND } from '../../../../../src/interfaces/http/config/api-extra';
import { type NegotiateFailure, NegotiateStrategy, requireKerberos } from '../../../../../src/interfaces/http/auth/negotiate-strategy';
import { ROOT } from '../../../../support/run-svc';

/** Runs the strategy through a passport instance, as the authenticator does, and resolves what the callback got. */
function authenticate(strategy: NegotiateStrategy, authorization?: string): Promise<{ principal: unknown; info: unknown }> {
  const passport = new Passport();
  passport.use(strategy);
  const req = { headers: authorization === undefined ? {} : { authorization } } as Request;
  return new Promise((done, fail) => {
    passport.authenticate('negotiate', { session: false }, (error: unknown, principal: unknown, info: unknown) =>
      error ? fail(error) : done({ principal, info }),
    )(req, {} as never, fail);
  });
}

describe('NegotiateStrategy', () => {
  const saved = process.env.KRB5_KTNAME;
  afterEach(() => {
    if (saved === undefined) delete process.env.KRB5_KTNAME;
    else process.env.KRB5_KTNAME = saved;
  });

  it('is the passport strategy named negotiate', () => {
    expect(new NegotiateStrategy({ spn: 'HTTP@localhost' }).name).toBe('negotiate');
  });

  it('points KRB5_KTNAME at the configured keytab as a FILE: keytab, and leaves it alone without one', () => {
    process.env.KRB5_KTNAME = 'FILE:/etc/other.keytab';
    new NegotiateStrategy({ spn: 'HTTP@localhost' });
    expect(process.env.KRB5_KTNAME).toBe('FILE:/etc/other.keytab');
    new NegotiateStrategy({ spn: 'HTTP@localhost', keytab: '/srv/svc/http.keytab' });
    expect(process.env.KRB5_KTNAME).toBe('FILE:/srv/svc/http.keytab');
  });

  it('refuses to start on Windows, where the kerberos module has no acceptor', () => {
    let error: unknown;
    try {
      new NegotiateStrategy({ spn: 'HTTP@svc.contoso.com' }, 'win32');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect([(error as ConfigError).code, (error as ConfigError).message]).toEqual([
      'negotiate-unsupported',
      'auth.negotiate is not available on Windows: the kerberos module has no server side there; let IIS do Windows authentication and trust it with auth.proxy (docs/iis.md), or run svc-api on Linux with a keytab',
    ]);
  });

  it('fails a request without Negotiate credentials with negotiate-required, without touching Kerberos', async () => {
    const strategy = new NegotiateStrategy({ spn: 'HTTP@localhost' });
    for (const authorization of [undefined, 'Basic YTpi']) {
      expect(await authenticate(strategy, authorization)).toEqual({
        principal: false,
        info: { code: 'negotiate-required', detail: 'this request needs Kerberos; send Authorization: Negotiate <token>' } satisfies NegotiateFailure,
      });
    }
  });

  it('fails an NTLM token before Kerberos sees it', async () => {
    const { info } = await authenticate(new NegotiateStrategy({ spn: 'HTTP@localhost' }), 'Negotiate TlRMTVNTUAABAAAAB4IIogAAAAAAAAAAAAAAAAAAAAAGAbEdAAAADw==');
    expect((info as NegotiateFailure).code).toBe('negotiate-ntlm-refused');
  });
});

describe('requireKerberos', () => {
  it('loads the kerberos module (in a child process: only the Negotiate integration test may load it in this one)', () => {
    const run = spawnSync(
      process.execPath,
      ['-e', "process.stdout.write(typeof require('./dist/interfaces/http/auth/negotiate-strategy').requireKerberos().initializeServer)"],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.stdout).toBe('function');
  });

  it('names the install command when the module is missing', () => {
    let error: unknown;
    try {
      requireKerberos('kerberos-that-is-not-installed');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect([(error as ConfigError).code, (error as ConfigError).message]).toEqual([
      'api-extra-missing',
      `the kerberos module is not installed, and auth.negotiate needs it; ${KERBEROS_INSTALL_COMMAND}`,
    ]);
  });
});
