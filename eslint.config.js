import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const root = import.meta.dirname;
const web = join(root, 'apps/web/src');
const api = join(root, 'apps/api/src');
/** The folders right under `dir`: one zone each, so a new feature or module is covered without a line here. */
const foldersOf = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const features = foldersOf(join(web, 'features'));
const modules = foldersOf(join(api, 'modules'));
/** A module's front door, the one file of it that code outside the module imports (STYLE.md §13). */
const frontDoors = modules.map((m) => `./${m}/index.ts`);

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
    // (STYLE.md §2). Types of rows may be imported anywhere.
    files: ['apps/api/src/**/*.ts'],
    ignores: [
      'apps/api/src/**/*.repo.ts',
      'apps/api/src/**/*.test.ts',
      'apps/api/src/**/test-helpers.ts',
      'apps/api/src/db/**',
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
    // Import lines, drawn on the files an import resolves to (not on how its path is spelled), as
    // bulletproof-react's import/no-restricted-paths zones draw them (STYLE.md §2, §13).
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/api/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          // The API imports its TypeScript files by their emitted names (`./x.js`).
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
      // Only the apps' own files are read to follow cycles; packages' built files are not.
      'import-x/extensions': ['.ts', '.tsx'],
    },
    rules: {
      // Type-only imports are left out (the rule's own default): they are gone once compiled.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // Web features: each a unit. A feature imports components/, lib/, @portal/shared, packages and its
    // own files, never another feature. app/ has no public part: what features used of it (the route
    // prefix, the refusal view) is in lib/ and components/.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: web,
          zones: [
            ...features.map((feature) => ({
              target: `features/${feature}`,
              from: 'features',
              except: [`./${feature}`],
              message:
                'A feature imports no other feature: what two features share goes to components/ or lib/.',
            })),
            {
              target: 'features',
              from: 'app',
              message: 'A feature imports nothing from app/: what it needs goes to components/ or lib/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared web code serves features and app/, and imports neither.
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: web,
          zones: [
            {
              target: ['components', 'lib'],
              from: ['features', 'app'],
              message: 'components/ and lib/ import no feature and nothing from app/.',
            },
          ],
        },
      ],
    },
  },
  {
    // app/ reaches features through the route table only: it hands the shell what it shows from a
    // feature (the notifications bell). Tests of app/ assemble features as the route table does.
    files: ['apps/web/src/app/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/app/routes.tsx', 'apps/web/src/app/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: web,
          zones: [
            {
              target: 'app',
              from: 'features',
              message: 'app/ imports features only in app/routes.tsx, the route table.',
            },
          ],
        },
      ],
    },
  },
  {
    // API modules: each a unit with one front door, modules/<name>/index.ts (STYLE.md §13). Tests may
    // reach into any module.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/**/*.test.ts', 'apps/api/src/**/test-helpers.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: api,
          zones: [
            ...modules.map((module) => ({
              target: `modules/${module}`,
              from: 'modules',
              except: [`./${module}`, ...frontDoors],
              message: "A module imports another only through its front door, '../<name>/index.js'.",
            })),
            {
              target: ['lib', 'core', 'db', 'plugins'],
              from: 'modules',
              message:
                'lib/, core/, db/ and plugins/ import nothing from modules/: a module is handed what it needs.',
            },
            {
              // The composition roots (the app, the server, the command line and the route table,
              // modules/index.ts, which the app registers) import modules' front doors only.
              target: ['app.ts', 'server.ts', 'cli', 'modules/index.ts'],
              from: 'modules',
              except: ['./index.ts', ...frontDoors],
              message: "Only a module's front door, modules/<name>/index.ts, is imported from outside it.",
            },
          ],
        },
      ],
    },
  },
);
