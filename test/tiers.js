'use strict';
/**
 * Suites of test/unit and test/property that run the built dist/ (the CLI, svc-api, or a module of dist/): they are
 * in the integration tier (jest.config.js); test/architecture/test-tiers.test.ts keeps this list whole.
 */
exports.BUILT = ['test/property/dates-and-urls.property.test.ts', 'test/property/http-bodies.property.test.ts', 'test/unit/interfaces/http/auth/negotiate-strategy.test.ts'];
