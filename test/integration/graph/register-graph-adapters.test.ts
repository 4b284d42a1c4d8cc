import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { container } from 'tsyringe';
import { type AppError, ConfigError } from '../../../src/domain/errors';
import { ExportFileDirectoryService } from '../../../src/infrastructure/directory/export-file-directory-service';
import { ExportFileOrgPathDirectory } from '../../../src/infrastructure/directory/export-file-org-path-directory';
import { GraphDirectoryService } from '../../../src/infrastructure/directory/graph-directory-service';
import { HttpBoundaryProbe } from '../../../src/infrastructure/directory/http-boundary-probe';
import { OfflineBoundaryProbe } from '../../../src/infrastructure/directory/offline-boundary-probe';
import { registerAdapters } from '../../../src/infrastructure/register-adapters';
import { BOUNDARY_PROBE } from '../../../src/ports/boundary-probe';
import { DIRECTORY_SERVICE } from '../../../src/ports/directory-service';
import { DEFAULT_GRAPH_RETRY, DEFAULT_ORG_PATH_ATTRIBUTE, GRAPH_SETTINGS, type GraphSettings } from '../../../src/ports/graph-settings';
import { ORG_PATH_DIRECTORY } from '../../../src/ports/org-path-directory';

const EXPORT = join(__dirname, '..', '..', '..', 'fixtures', 'graph-export.json');
let cwd: string;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'svc-graph-register-'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function root(settings?: GraphSettings, env: NodeJS.ProcessEnv = {}) {
  const child = registerAdapters(container.createChildContainer(), { env, cwd });
  if (settings) child.register(GRAPH_SETTINGS, { useValue: settings });
  return child;
}

const base: GraphSettings = { cloud: 'USGov', orgPathAttribute: DEFAULT_ORG_PATH_ATTRIBUTE, retry: DEFAULT_GRAPH_RETRY };

describe('registerAdapters: the directory ports', () => {
  it('binds the export adapters when graph.export is set', () => {
    const c = root({ ...base, exportFile: EXPORT });
    expect(c.resolve(DIRECTORY_SERVICE)).toBeInstanceOf(ExportFileDirectoryService);
    expect(c.resolve(ORG_PATH_DIRECTORY)).toBeInstanceOf(ExportFileOrgPathDirectory);
    expect(c.resolve(BOUNDARY_PROBE)).toBeInstanceOf(OfflineBoundaryProbe);
  });

  it('binds the Graph adapters otherwise, without calling anything yet', () => {
    const c = root(
      {
        ...base,
        tenantId: 'contoso.onmicrosoft.us',
        clientId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        credential: { kind: 'secret', secretEnv: 'SVC_GRAPH_SECRET' },
      },
      { SVC_GRAPH_SECRET: 's' },
    );
    expect(c.resolve(DIRECTORY_SERVICE)).toBeInstanceOf(GraphDirectoryService);
    expect(c.resolve(BOUNDARY_PROBE)).toBeInstanceOf(HttpBoundaryProbe);
  });

  it('keeps configuration errors as ConfigError (exit 5, HTTP 500), not internal errors', async () => {
    const missingSecret = root({
      ...base,
      tenantId: 'contoso.onmicrosoft.us',
      clientId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      credential: { kind: 'secret', secretEnv: 'SVC_GRAPH_SECRET' },
    });
    const error = await (async () => missingSecret.resolve(DIRECTORY_SERVICE).listUsers())().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as AppError).code).toBe('graph-secret-missing');

    const unconfigured = root();
    const refusal = await (async () => unconfigured.resolve(ORG_PATH_DIRECTORY).listPaths())().catch((e: unknown) => e);
    expect(refusal).toEqual(
      new ConfigError(
        'graph-not-configured',
        'the API config has no "graph" section; add one with the tenant, app and credential, or with "export" for offline mode (docs/graph.md)',
      ),
    );
    expect(unconfigured.resolve(BOUNDARY_PROBE)).toBeInstanceOf(HttpBoundaryProbe);
  });
});
