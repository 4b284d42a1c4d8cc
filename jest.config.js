/**
 * Four tiers as jest projects (README, "Tests"): `npm run test:unit` (test/unit, test/property: svc's source alone,
 * no build), `test:integration` (test/integration: real adapters, PostgreSQL, the KDC; test/architecture: the real
 * dependency-cruiser over the source tree; and the few other suites that run the built CLI), `test:e2e` (test/e2e:
 * the built CLI and svc-api as users run them) and `test:heavy` (test/heavy: hours, not part of `npm test`).
 * `npm test` runs the first three.
 */

const { BUILT } = require('./test/tiers.js');

const common = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  // Transpile only (tsconfig.jest.json sets isolatedModules): `npm run lint`, which `npm test` runs first, type-checks
  // src and test once, rather than ts-jest in every worker (test/unit: 59 s -> 34 s here).
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
};
/** The tiers that run dist/: each refuses one older than src/ before its first suite (test/built-is-current.js). */
const built = { ...common, globalSetup: '<rootDir>/test/built-is-current.js' };
const within = (...dirs) => dirs.map((dir) => `<rootDir>/test/${dir}/**/*.test.ts`);
const runningBuilt = BUILT.map((file) => `<rootDir>/${file}`);

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: within('unit', 'property'), testPathIgnorePatterns: runningBuilt },
    { ...built, displayName: 'integration', testMatch: [...within('integration', 'architecture'), ...runningBuilt] },
    { ...built, displayName: 'e2e', testMatch: within('e2e') },
    { ...built, displayName: 'heavy', testMatch: within('heavy') },
  ],
  verbose: true,
  testTimeout: 60_000,
  // Both cores: most suites wait on child processes (the built CLI, svc-api, PostgreSQL, Chromium, the KDC).
  maxWorkers: 2,
};
