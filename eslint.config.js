import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  {
    ignores: [
      '**/.tmp',
      'e2e/screenshots',
      'e2e/test-results',
      '.test-reports',
      '**/node_modules',
      '**/dist',
      'data',
      'test-results',
      'playwright-report',
      'apps/api/src/db/migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // SQL lives in repositories (*.repo.ts) only: routes, services, plugins and helpers call them
    // (STYLE.md §2). Types of rows may be imported anywhere. The identity cache reads the version
    // that every repo statement carries, so it is a repository too.
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/*.repo.ts',
      'apps/api/src/**/*.test.ts',
      'apps/api/src/**/test-helpers.ts',
      'apps/api/src/db/**',
      'apps/api/src/lib/identity-cache.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/schema/*', '**/db/schema/index.js', 'drizzle-orm', 'drizzle-orm/*'],
              allowTypeImports: true,
              message: 'SQL lives in a repo (*.repo.ts); call one.',
            },
          ],
        },
      ],
    },
  },
  {
    // Features do not import each other's internals (STYLE.md §2).
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!auth/|lib/|components/|app/)[a-z-]+/',
              message: 'Features do not import each other; use components/, lib/ or @portal/shared.',
            },
          ],
        },
      ],
    },
  },
);
