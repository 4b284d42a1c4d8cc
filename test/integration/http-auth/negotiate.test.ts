// The one test file that loads kerberos in this process. Its JS wrapper patches the native classes it loads, and jest's
// per-file module registries share one native module per process, so a second file loading it in-process would get
// handshakes that never finish: other tests reach Kerberos through child processes (test/e2e/api/authentication.test.ts).
import * as kerberos from 'kerberos';
import { createServer } from 'node:http';
import { type AuthRefusal, createAuthenticator } from '../../../src/interfaces/http/auth/authenticator';
import { authTestApp, call, curl, listen } from '../../support/auth-test-app';
import { type Kdc, type KdcUser, setNativeEnv, startKdc } from '../../support/kdc';

const NTLM_NEGOTIATE = 'TlRMTVNTUAABAAAAB4IIogAAAAAAAAAAAAAAAAAAAAAGAbEdAAAADw==';
const NEGOTIATE_FAILED = 'the Kerberos token was not accepted; get a fresh ticket for the service and retry';

let kdc: Kdc;
let port: number;
let close: () => Promise<void>;
let restoreEnv: () => void;
const refusals: AuthRefusal[] = [];

/** A first SPNEGO token from the `kerberos` client, with the ticket cache of `user`. */
async function clientToken(user: KdcUser): Promise<{ token: string; client: kerberos.KerberosClient }> {
  const restore = setNativeEnv({ KRB5CCNAME: kdc.ccacheFor(user) });
  try {
    const client = await kerberos.initializeClient('HTTP@localhost', { mechOID: kerberos.GSS_MECH_OID_SPNEGO });
    return { token: await client.step(''), client };
  } finally {
    restore();
  }
}

const whoami = (authorization?: string) => call('127.0.0.1', port, '/whoami', { headers: authorization === undefined ? {} : { authorization } });

beforeAll(async () => {
  kdc = await startKdc();
  // The kerberos library reads these when it is called. The strategy sets KRB5_KTNAME from the config, but under
  // jest that write reaches only the test's copy of process.env, so the test sets it where the library reads it.
  restoreEnv = setNativeEnv({
    KRB5_CONFIG: kdc.env.KRB5_CONFIG,
    KRB5RCACHEDIR: kdc.env.KRB5RCACHEDIR,
    KRB5CCNAME: kdc.ccacheFor('alice'),
    KRB5_KTNAME: kdc.env.KRB5_KTNAME,
  });
  const authenticator = createAuthenticator({ negotiate: { spn: kdc.spn, keytab: kdc.keytab } }, { onRefused: (refusal) => refusals.push(refusal) });
  ({ port, close } = await listen(createServer(authTestApp(authenticator))));
});

afterAll(async () => {
  await close?.();
  restoreEnv?.();
  await kdc?.stop();
});

beforeEach(() => {
  refusals.length = 0;
});

describe('Negotiate (SPNEGO, RFC 4559) against a real MIT KDC', () => {
  it('lists negotiate as the only method, challenging with Negotiate', () => {
    const { methods, challenges } = createAuthenticator({ negotiate: { spn: kdc.spn } });
    expect(methods).toEqual(['negotiate']);
    expect(challenges).toEqual(['Negotiate']);
  });

  it('leaves the principal unset for a request without Authorization, so the route answers 401 with the Negotiate challenge', async () => {
    const reply = await whoami();
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Negotiate');
    expect(reply.body).toEqual({ status: 401, code: 'unauthenticated', detail: 'this route needs an authenticated principal' });
  });

  it('treats a Basic or Bearer credential as none', async () => {
    for (const authorization of ['Basic YWxpY2U6cGFzcw==', 'Bearer abc.def.ghi']) {
      const reply = await whoami(authorization);
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ status: 401, code: 'unauthenticated', detail: 'this route needs an authenticated principal' });
    }
  });

  it('authenticates curl --negotiate as alice and answers a mutual-authentication token', async () => {
    const reply = await curl(['--negotiate', '-u', ':', `http://localhost:${port}/whoami`], {
      ...process.env,
      KRB5_CONFIG: kdc.env.KRB5_CONFIG,
      KRB5CCNAME: kdc.ccacheFor('alice'),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ name: 'alice@SVC.TEST', method: 'negotiate' });
    expect(reply.headers['www-authenticate']).toMatch(/^Negotiate [A-Za-z0-9+/]{20,}={0,2}$/);
  });

  it.each(['alice', 'bob'] as const)('authenticates %s from the kerberos client, whose context completes on the server token', async (user) => {
    const { token, client } = await clientToken(user);
    const reply = await whoami(`Negotiate ${token}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ name: kdc.users[user], method: 'negotiate' });
    const mutual = /^Negotiate (\S+)$/.exec(String(reply.headers['www-authenticate']))?.[1] as string;
    await client.step(mutual);
    expect(client.contextComplete).toBe(true);
  });

  it('accepts the scheme name in any case', async () => {
    const { token } = await clientToken('bob');
    const reply = await whoami(`negotiate ${token}`);
    expect(reply.body).toEqual({ name: 'bob@SVC.TEST', method: 'negotiate' });
  });

  it('refuses a token that is not Kerberos with 401 negotiate-failed and the challenge', async () => {
    const reply = await whoami('Negotiate Z2FyYmFnZQ==');
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Negotiate');
    expect(reply.body).toEqual({ status: 401, code: 'negotiate-failed', detail: NEGOTIATE_FAILED });
    expect(refusals).toEqual([{ method: 'negotiate', code: 'negotiate-failed', reason: expect.stringContaining('Invalid token was supplied') }]);
  });

  it('refuses a replayed token', async () => {
    const { token } = await clientToken('alice');
    expect((await whoami(`Negotiate ${token}`)).status).toBe(200);
    const replay = await whoami(`Negotiate ${token}`);
    expect(replay.status).toBe(401);
    expect(replay.headers['www-authenticate']).toBe('Negotiate');
    expect(replay.body).toEqual({ status: 401, code: 'negotiate-failed', detail: NEGOTIATE_FAILED });
    expect(refusals).toEqual([{ method: 'negotiate', code: 'negotiate-failed', reason: expect.stringContaining('Request is a replay') }]);
  });

  it('refuses an NTLM token with 401 negotiate-ntlm-refused', async () => {
    const reply = await whoami(`Negotiate ${NTLM_NEGOTIATE}`);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Negotiate');
    expect(reply.body).toEqual({
      status: 401,
      code: 'negotiate-ntlm-refused',
      detail:
        'the Negotiate token is NTLM, which svc-api does not accept; use Kerberos: get a ticket (kinit, or a domain logon) and use the host name of the service principal in the URL',
    });
  });

  it.each(['Negotiate', 'Negotiate ', 'Negotiate abc def', 'Negotiate !!!', 'Negotiate\tYII='])(
    'refuses the malformed header %j with 401 negotiate-malformed',
    async (authorization) => {
      const reply = await whoami(authorization);
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe('Negotiate');
      expect(reply.body).toEqual({
        status: 401,
        code: 'negotiate-malformed',
        detail: 'the Authorization header is not "Negotiate <base64 token>" (RFC 4559); let the HTTP client build it',
      });
    },
  );

  it('answers 500 negotiate-unavailable, without the keytab path, when the acceptor has no key', async () => {
    const restore = setNativeEnv({ KRB5_KTNAME: `FILE:${kdc.dir}/missing.keytab` });
    try {
      const { token } = await clientToken('alice');
      const reply = await whoami(`Negotiate ${token}`);
      expect(reply.status).toBe(500);
      expect(reply.body).toEqual({
        status: 500,
        code: 'negotiate-unavailable',
        detail:
          'cannot create the Kerberos acceptor for HTTP@localhost; check that auth.negotiate.keytab (or KRB5_KTNAME) holds a key of its service principal',
      });
    } finally {
      restore();
    }
  });

  it('never writes a token to stdout, stderr, a refusal or a response', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
    try {
      const { token } = await clientToken('alice');
      const accepted = await whoami(`Negotiate ${token}`);
      const replayed = await whoami(`Negotiate ${token}`);
      const garbage = 'Z2FyYmFnZSB0b2tlbiB0aGF0IGlzIGxvbmc=';
      const refused = await whoami(`Negotiate ${garbage}`);
      const seen = [...written, ...refusals.map((r) => JSON.stringify(r)), ...[accepted, replayed, refused].map((r) => JSON.stringify(r.body))].join('\n');
      expect(seen).not.toContain(token.slice(0, 24));
      expect(seen).not.toContain(garbage);
      expect(refusals.map((r) => r.code)).toEqual(['negotiate-failed', 'negotiate-failed']);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
