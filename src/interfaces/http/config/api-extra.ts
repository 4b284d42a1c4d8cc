/**
 * The `api` extra: packages svc-api needs and the CLI does not. They are optional peer dependencies of
 * compliance-evidence-service, so `npm install compliance-evidence-service` gives the CLI alone and this one command
 * adds the API (docs/api.md).
 */
export const API_PACKAGES = [
  'express@^5.3.0',
  'swagger-ui-express@^5.0.1',
  'passport@^0.7.0',
  'passport-strategy@^1.0.0',
  '@azure/msal-node@^7.2.1',
  'pino@^10.4.0',
  'helmet@^8.3.0',
  'express-rate-limit@^8.7.4',
] as const;

export const API_INSTALL_COMMAND = `npm install ${API_PACKAGES.map((p) => `'${p}'`).join(' ')}`;

/**
 * `kerberos` (only for auth.negotiate) is an optional dependency of the package: npm builds it where the GSS-API
 * headers are and leaves it out elsewhere. This adds it once the headers are there.
 */
export const KERBEROS_INSTALL_COMMAND = "apt-get install libkrb5-dev (or your system's GSS-API headers), then npm install 'kerberos@^7.0.0'";

const NEEDED_TO_START = API_PACKAGES.map((p) => p.slice(0, p.lastIndexOf('@')));

/** Names of the API packages svc-api cannot start without that `resolve` cannot find (`require.resolve` in production). */
export function missingApiPackages(resolve: (name: string) => unknown): string[] {
  return NEEDED_TO_START.filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}
