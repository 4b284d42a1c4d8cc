import { createAuthenticator } from '../../../../../src/interfaces/http/auth/authenticator';

describe('createAuthenticator', () => {
  it('lists no method and no challenge without configuration, and leaves every request unauthenticated', () => {
    const authenticator = createAuthenticator({});
    expect([authenticator.methods, authenticator.challenges]).toEqual([[], []]);
    const res = { locals: {} as Record<string, unknown> };
    const next = jest.fn();
    authenticator.middleware({ headers: { authorization: 'Negotiate YII=', 'x-forwarded-user': 'alice' }, socket: {} } as never, res as never, next);
    expect(next).toHaveBeenCalledWith();
    expect(res.locals).toEqual({});
  });

  it('lists the methods in a fixed order', () => {
    const authenticator = createAuthenticator({
      proxy: { header: 'x-forwarded-user', addresses: ['127.0.0.1'], certificates: [] },
      mtls: { ca: '/ca.pem', cert: '/server.crt', key: '/server.key' },
      negotiate: { spn: 'HTTP@localhost' },
    });
    expect([authenticator.methods, authenticator.challenges]).toEqual([['negotiate', 'mtls', 'proxy'], ['Negotiate']]);
  });
});
