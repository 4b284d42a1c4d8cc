import { Flags } from '@oclif/core';
import { resolve } from 'node:path';
import { UsageError } from '../../domain/errors';
import { AUTH_KINDS, type AuthKind, type ProviderAuth } from '../../domain/agency/providers';

/** How svc authenticates to a trust center: the flags `agency add` and `agency import` share. */
export const authFlags = {
  auth: Flags.string({
    summary:
      'How to authenticate to the trust center: none (its public information only), negotiate (your Kerberos ticket), cert (a client certificate), token (a bearer token).',
    options: [...AUTH_KINDS],
    default: 'none',
  }),
  spn: Flags.string({ summary: "With --auth negotiate: the trust center's GSS service name (default HTTP@<host of --url>).", helpValue: 'HTTP@<host>' }),
  cert: Flags.string({
    summary: 'With --auth cert: PEM file of the client certificate (a PIV/CAC-style certificate issued by your agency).',
    helpValue: '<cert.pem>',
  }),
  key: Flags.string({ summary: "With --auth cert: PEM file of the certificate's private key (only its path is kept).", helpValue: '<key.pem>' }),
  'token-file': Flags.string({ summary: 'With --auth token: file holding the bearer token (only its path is kept; the token never is).', helpValue: '<file>' }),
  ca: Flags.string({ summary: "PEM file of the CA certificates to trust for the trust center's TLS certificate, beside the system's.", helpValue: '<ca.pem>' }),
  replace: Flags.boolean({ summary: 'Replace a provider of the same name instead of refusing.' }),
};

type AuthFlagValues = { auth: string; spn?: string; cert?: string; key?: string; 'token-file'?: string; ca?: string };

/** The authentication the flags give (paths made absolute), or a usage error naming the flag missing or out of place. */
export function parseAuthFlags(flags: AuthFlagValues, cwd = process.cwd()): { auth: ProviderAuth; ca?: string } {
  const kind = flags.auth as AuthKind;
  const needs: Record<AuthKind, (keyof AuthFlagValues)[]> = { none: [], negotiate: [], cert: ['cert', 'key'], token: ['token-file'] };
  const allows: Record<AuthKind, (keyof AuthFlagValues)[]> = { none: [], negotiate: ['spn'], cert: ['cert', 'key'], token: ['token-file'] };
  for (const flag of needs[kind]) if (flags[flag] === undefined) throw new UsageError('agency-auth-flag', `--auth ${kind} needs --${flag}`);
  for (const flag of ['spn', 'cert', 'key', 'token-file'] as const)
    if (flags[flag] !== undefined && !allows[kind].includes(flag))
      throw new UsageError(
        'agency-auth-flag',
        `--${flag} goes with --auth ${flag === 'spn' ? 'negotiate' : flag === 'token-file' ? 'token' : 'cert'}, not --auth ${kind}`,
      );
  const path = (p: string) => resolve(cwd, p);
  const auth: ProviderAuth =
    kind === 'cert'
      ? { kind, cert: path(flags.cert!), key: path(flags.key!) }
      : kind === 'token'
        ? { kind, tokenFile: path(flags['token-file']!) }
        : kind === 'negotiate'
          ? { kind, ...(flags.spn === undefined ? {} : { spn: flags.spn }) }
          : { kind: 'none' };
  return { auth, ...(flags.ca === undefined ? {} : { ca: path(flags.ca) }) };
}
