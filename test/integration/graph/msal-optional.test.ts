import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIST = join(__dirname, '..', '..', '..', 'dist');

describe('@azure/msal-node is an optional dependency', () => {
  it('is required only when a token is needed, and its absence is ConfigError api-extra-missing', () => {
    // The built adapter copied where no node_modules can be found: as in an install without the API extra.
    const dir = mkdtempSync(join(tmpdir(), 'svc-no-msal-'));
    try {
      cpSync(join(DIST, 'domain'), join(dir, 'dist', 'domain'), { recursive: true });
      cpSync(join(DIST, 'infrastructure', 'directory'), join(dir, 'dist', 'infrastructure', 'directory'), { recursive: true });
      const script = `
        const { HttpsTransport } = require('./dist/infrastructure/directory/https-transport');
        const { MsalTokenSource } = require('./dist/infrastructure/directory/msal-token-source');
        try {
          new MsalTokenSource({ tenantId: 't', clientId: 'c', credential: { secret: 's' }, authorityHost: 'login.microsoftonline.com', scope: 'https://graph.microsoft.com/.default', transport: new HttpsTransport() });
        } catch (e) { console.log(JSON.stringify({ name: e.name, kind: e.kind, code: e.code, message: e.message })); }`;
      const run = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
      expect(JSON.parse(run.stdout)).toEqual({
        name: 'ConfigError',
        kind: 'config',
        code: 'api-extra-missing',
        message:
          '@azure/msal-node is not installed, and the directory routes need it to sign in to Microsoft Graph; install it with: npm install @azure/msal-node',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
