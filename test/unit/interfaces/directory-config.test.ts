import { InvalidInputError } from '../../../src/domain/errors';
import { parseBoundaryConfig, parseGraphConfig, parseOrgPathConfig } from '../../../src/interfaces/http/config/directory-config';

const FILE = '/etc/svc/api.json';
const GRAPH = { cloud: 'USGov', tenant_id: 'contoso.onmicrosoft.us', client_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', client_secret_env: 'SVC_GRAPH_SECRET' };

describe('parseGraphConfig', () => {
  it('reads a secret-based connection with defaults', () => {
    expect(parseGraphConfig(GRAPH, FILE, '/etc/svc')).toEqual({
      cloud: 'USGov',
      tenantId: 'contoso.onmicrosoft.us',
      clientId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      credential: { kind: 'secret', secretEnv: 'SVC_GRAPH_SECRET' },
      orgPathAttribute: 'onPremisesExtensionAttributes.extensionAttribute1',
      retry: { attempts: 4, maxWaitMs: 60_000 },
    });
    expect(parseGraphConfig(undefined, FILE, '/etc/svc')).toBeUndefined();
  });

  it('reads a certificate connection, overrides and relative paths', () => {
    const { client_secret_env: _secret, ...rest } = GRAPH;
    const settings = parseGraphConfig(
      {
        ...rest,
        cloud: 'USGovDoD',
        certificate: { private_key: 'keys/app.key', certificate: '/pki/app.crt' },
        authority_host: '127.0.0.1:8443',
        graph_host: 'localhost:9443',
        ca_file: 'ca.pem',
        orgpath_attribute: 'employeeType',
        retry: { attempts: 2, max_wait_seconds: 5 },
        timeout_seconds: 10,
      },
      FILE,
      '/etc/svc',
    );
    expect(settings).toEqual({
      cloud: 'USGovDoD',
      tenantId: 'contoso.onmicrosoft.us',
      clientId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      credential: { kind: 'certificate', privateKey: '/etc/svc/keys/app.key', certificate: '/pki/app.crt' },
      authorityHost: '127.0.0.1:8443',
      graphHost: 'localhost:9443',
      caFile: '/etc/svc/ca.pem',
      orgPathAttribute: 'employeeType',
      retry: { attempts: 2, maxWaitMs: 5000 },
      timeoutMs: 10_000,
    });
  });

  it('needs only the export file offline', () => {
    expect(parseGraphConfig({ export: 'fixtures/graph-export.json' }, FILE, '/srv')).toEqual({
      cloud: 'Public',
      exportFile: '/srv/fixtures/graph-export.json',
      orgPathAttribute: 'onPremisesExtensionAttributes.extensionAttribute1',
      retry: { attempts: 4, maxWaitMs: 60_000 },
    });
  });

  it.each([
    [{ ...GRAPH, cloud: 'Mars' }, 'graph.cloud: expected one of Public, USGov, USGovDoD, got "Mars"'],
    [
      { ...GRAPH, client_secret: 'abc' },
      'graph.client_secret: a secret may not be written in the config file; put it in an environment variable and name that variable in graph.client_secret_env',
    ],
    [
      { ...GRAPH, tenant: 'x' },
      'graph.tenant: unknown setting (known: cloud, tenant_id, client_id, client_secret_env, certificate, export, authority_host, graph_host, ca_file, orgpath_attribute, retry, timeout_seconds)',
    ],
    [
      { ...GRAPH, tenant_id: 'contoso' },
      'graph.tenant_id: expected the directory (tenant) id as a GUID or a domain such as contoso.onmicrosoft.com, got "contoso"',
    ],
    [{ ...GRAPH, client_id: 'my-app' }, 'graph.client_id: expected the application (client) id as a GUID, got "my-app"'],
    [
      { ...GRAPH, client_secret_env: 'SVC GRAPH' },
      'graph.client_secret_env: expected the name of an environment variable such as "SVC_GRAPH_SECRET", got "SVC GRAPH"',
    ],
    [
      { ...GRAPH, client_secret_env: undefined },
      'graph: no credential; set client_secret_env (the name of the variable holding the client secret) or certificate {private_key, thumbprint or certificate}',
    ],
    [{ ...GRAPH, certificate: { private_key: 'k.pem', thumbprint: 'abc' } }, 'graph: both client_secret_env and certificate are set; keep one credential'],
    [
      { ...GRAPH, client_secret_env: undefined, certificate: { private_key: 'k.pem', thumbprint: 'abc' } },
      'graph.certificate.thumbprint: expected the certificate\'s SHA-1 (40 hex digits) or SHA-256 (64 hex digits) thumbprint, got "abc"',
    ],
    [
      { ...GRAPH, client_secret_env: undefined, certificate: { private_key: 'k.pem' } },
      'graph.certificate: needs thumbprint or certificate (the PEM certificate uploaded to the app registration)',
    ],
    [
      { ...GRAPH, graph_host: 'https://graph.microsoft.us' },
      'graph.graph_host: expected a host name with an optional port, such as login.microsoftonline.us or 127.0.0.1:8443, got "https://graph.microsoft.us"',
    ],
    [
      { ...GRAPH, orgpath_attribute: 'onPremisesExtensionAttributes.extensionAttribute16' },
      'graph.orgpath_attribute: expected a user property name or onPremisesExtensionAttributes.extensionAttribute1 to 15, got "onPremisesExtensionAttributes.extensionAttribute16"',
    ],
    [{ ...GRAPH, retry: { attempts: 0 } }, 'graph.retry.attempts: expected a whole number from 1 to 10, got number 0'],
    [{ ...GRAPH, retry: { wait: 1 } }, 'graph.retry.wait: unknown setting (known: attempts, max_wait_seconds)'],
    ['graph', 'graph: expected an object, got "graph"'],
  ])('refuses a bad graph section (%#)', (value, message) => {
    expect(() => parseGraphConfig(value, FILE, '/etc/svc')).toThrow(
      new InvalidInputError('invalid-api-config', `${FILE}: ${message}; fix the "graph" section (docs/graph.md)`),
    );
  });
});

describe('parseOrgPathConfig and parseBoundaryConfig', () => {
  it('read their sections', () => {
    expect(parseOrgPathConfig({ rules: [{ match: { department: 'Finance' }, path: '/Contoso/Finance' }] }, FILE)).toEqual({
      rules: [{ match: { department: 'Finance' }, path: '/Contoso/Finance' }],
    });
    expect(parseOrgPathConfig(undefined, FILE)).toEqual({ rules: [] });
    expect(parseBoundaryConfig({ environment: 'GCCHigh', required: ['conditional-access'] }, FILE)).toEqual({
      environment: 'GCCHigh',
      required: ['conditional-access'],
    });
    expect(parseBoundaryConfig(undefined, FILE)).toBeUndefined();
  });

  it.each([
    [
      () => parseOrgPathConfig({ rules: [{ match: {}, path: 'Finance' }] }, FILE),
      `${FILE}: orgpath.rules[0].path: "Finance" does not start with "/"; fix the "orgpath" section (docs/graph.md)`,
    ],
    [() => parseOrgPathConfig({ rule: [] }, FILE), `${FILE}: orgpath.rule: unknown setting (known: rules); fix the "orgpath" section (docs/graph.md)`],
    [
      () => parseBoundaryConfig({ environment: 'GCC High' }, FILE),
      `${FILE}: boundary.environment: expected one of Commercial, GCC, GCCHigh, DoD, got "GCC High"; fix the "boundary" section (docs/graph.md)`,
    ],
    [
      () => parseBoundaryConfig({ environment: 'DoD', required: 'intune' }, FILE),
      `${FILE}: boundary.required: expected an array of feature ids, got "intune"; fix the "boundary" section (docs/graph.md)`,
    ],
    [
      () => parseBoundaryConfig({ environment: 'DoD', required: ['Intune'] }, FILE),
      `${FILE}: boundary.required[0]: expected a feature id in kebab case such as "conditional-access", got "Intune"; fix the "boundary" section (docs/graph.md)`,
    ],
  ])('refuse bad sections (%#)', (parse, message) => {
    expect(parse).toThrow(new InvalidInputError('invalid-api-config', message));
  });
});
