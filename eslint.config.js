'use strict';
/**
 * ESLint (flat config): JavaScript's and typescript-eslint's recommended rules without type information (fast: the
 * type-checker is `tsc`, which `npm run lint` runs first), and `consistent-type-imports` (STYLE §5): an import used
 * only as a type is `import type`, except in a file with decorators, where tsyringe's emitted metadata needs the
 * classes as values (the parser options below make the rule leave those files alone). Formatting is Prettier's
 * (.prettierrc.json); `npm run lint` checks both.
 */
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

/** What Node gives every module, for the CommonJS scripts (bin/, scripts/, the jest configuration). */
const NODE_GLOBALS = Object.fromEntries(
  [
    'require',
    'module',
    'exports',
    'process',
    '__dirname',
    '__filename',
    'console',
    'Buffer',
    'setTimeout',
    'clearTimeout',
    'setImmediate',
    'setInterval',
    'clearInterval',
    'URL',
    'TextEncoder',
    'TextDecoder',
    'fetch',
    'AbortController',
    'structuredClone',
    'queueMicrotask',
    'performance',
  ].map((name) => [name, 'readonly']),
);

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test/golden/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `typeof import('./x')` types a lazy require (infrastructure/registration/lazy.ts): allowed.
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // A leading underscore names what is there on purpose and unused: an interface's parameter, a rest sibling left out.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // svc matches control characters on purpose: to escape them in what it writes (CSV, Markdown, one-line errors).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: NODE_GLOBALS },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests stub and reach into what they test (`any` there is a test's business, never the product's), and load the
    // built dist/ and the bench's JavaScript by path with require.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-require-imports': 'off' },
  },
);
