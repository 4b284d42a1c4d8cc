/**
 * The dependency rule of DESIGN §2, checked by `npm run lint` and by test/architecture.
 * interfaces → application → domain; infrastructure → ports + domain; only the composition roots
 * (src/interfaces/<entry>/container.ts, or <name>-container.ts where one folder holds two entries) reach infrastructure.
 */
const ROOTS = '^src/interfaces/[^/]+/[a-z-]*container\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing outside src/domain: no Node built-ins, no packages, no other layer.',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { pathNot: '^src/domain' },
    },
    {
      name: 'ports-are-interfaces',
      comment: 'src/ports holds interfaces and tokens over domain types; tsyringe only for InjectionToken types.',
      severity: 'error',
      from: { path: '^src/ports' },
      to: { pathNot: ['^src/domain', '^src/ports', 'node_modules/tsyringe'] },
    },
    {
      name: 'application-uses-ports',
      comment: 'Use cases depend on the domain, the ports and tsyringe decorators, never on adapters or frameworks.',
      severity: 'error',
      from: { path: '^src/application' },
      to: { pathNot: ['^src/domain', '^src/ports', '^src/application', 'node_modules/tsyringe'] },
    },
    {
      name: 'infrastructure-implements-ports',
      comment: 'Adapters implement ports with the domain; they never call use cases or driving adapters.',
      severity: 'error',
      from: { path: '^src/infrastructure' },
      to: { path: ['^src/application', '^src/interfaces'] },
    },
    {
      name: 'only-composition-roots-reach-adapters',
      comment: 'Commands and controllers get adapters through the container, built in one root per entry point.',
      severity: 'error',
      from: { path: '^src/interfaces', pathNot: ROOTS },
      to: { path: '^src/infrastructure' },
    },
    {
      name: 'commands-stay-thin',
      comment: 'A command parses, calls one use case and renders: no file system, crypto or network of its own.',
      severity: 'error',
      from: { path: '^src/interfaces/cli/commands' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-test',
      severity: 'error',
      from: { path: '^src' },
      to: { path: '^test' },
    },
    {
      name: 'not-to-dev-dep',
      comment: 'What ships may not need a devDependency at run time (the api extra is an optional peer, installed for tests as dev).',
      severity: 'error',
      from: { path: '^src' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['npm-peer'] },
    },
    {
      name: 'api-extra-stays-in-the-api',
      comment: 'The CLI installs and runs without the api extra (DESIGN §9): only svc-api and the Graph adapters load its packages.',
      severity: 'error',
      from: { path: '^src', pathNot: ['^src/interfaces/http/', '^src/infrastructure/directory/'] },
      to: { dependencyTypes: ['npm-peer'] },
    },
    {
      name: 'enforcement-is-library-only',
      comment: 'SPEC §9: the enforcement runtime is an importable library; no command and no route reaches it.',
      severity: 'error',
      from: { path: '^src/interfaces/(cli|http)/' },
      to: { path: '^src/(domain|application|ports)/enforcement|^src/ports/enforcement-adapter|^src/interfaces/library/' },
    },
    {
      name: 'doubles-are-independent',
      comment:
        "A test double implements its port by itself (with the domain's rules), never with the adapter it stands in for: their contract suites compare the two.",
      severity: 'error',
      from: { path: '^test/fakes' },
      to: { path: '^src/(infrastructure|interfaces)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.json$' },
  },
};
