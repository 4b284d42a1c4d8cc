/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
  verbose: true,
  testTimeout: 60_000,
  // Both cores: most suites wait on child processes (the built CLI, svc-api, PostgreSQL, Chromium, the KDC).
  maxWorkers: 2,
};
