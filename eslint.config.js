import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import ts from 'typescript-eslint';

export default ts.config(
  { ignores: ['dist/', 'release/', 'node_modules/', 'test-results/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Each runtime its own globals: the host (and its tools and tests) Node's, the renderer the DOM's, common/
  // only those both share; the e2e tests hand callbacks to the page, so they have both (tsconfig.*.json alike).
  { ignores: ['renderer/**', 'common/**', 'tests/e2e/**'], languageOptions: { globals: globals.node } },
  { files: ['renderer/**'], languageOptions: { globals: globals.browser } },
  { files: ['common/**'], languageOptions: { globals: globals['shared-node-browser'] } },
  { files: ['tests/e2e/**'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    // Only the shell's main.ts and preload.ts may load Electron at run time; everything else takes it injected.
    files: ['electron/**/*.ts'],
    ignores: ['electron/shell/main.ts', 'electron/shell/preload.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'electron', allowTypeImports: true, message: 'Inject what you need from Electron; only main.ts and preload.ts import it.' }] }],
    },
  },
  {
    // The sandbox is the client's test peer, a server of its own: it imports nothing of the client (not even
    // types), so that a bug in shared code cannot hide from the tests. The client may boot it, not the reverse.
    files: ['sandbox/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The sandbox is a plain Node server; it knows nothing of Electron.' }],
          patterns: [{ regex: '^\\.{1,2}/(.*/)?(electron|common|renderer)(/|$)', message: 'The sandbox imports nothing from the client (electron/, common/, renderer/): write its own from the spec and docs/api-assumptions.md.' }],
        },
      ],
    },
  },
  {
    // common/ is pure code both runtimes run: it loads nothing of the host, the renderer or the sandbox. It may
    // name a payload's type, whose one declaration is the host's zod schema (import type, gone at run time).
    files: ['common/**/*.ts'],
    rules: {
      ...noNodeAndHostTypesOnly('common/ runs in the renderer too: no Node or Electron here.', 'common/ takes only types from electron/ (import type).', [
        { regex: '^\\.{1,2}/(.*/)?(renderer|sandbox)(/|$)', message: 'common/ imports nothing from renderer/ or sandbox/.' },
      ]),
    },
  },
  {
    // Only the api layer reads HTTP statuses; everything else asks it what an answer means (docs/errors.md).
    files: ['electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.svelte', 'common/**/*.ts'],
    ignores: ['electron/services/api/**'],
    rules: {
      'no-restricted-syntax': ['error', ...statusChecks('Only electron/services/api/ reads HTTP statuses: ask it what the answer means (e.g. isNotFound, api/upload-answers.ts).')],
    },
  },
  {
    // The renderer has no Node: it talks to the host through lib/bridge.ts only, and takes only types from the
    // host's folder (a value would bring the host's code, zod's schemas among it, into the renderer's bundle).
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    rules: {
      ...noNodeAndHostTypesOnly('The renderer has no Node; go through lib/bridge.ts.', 'The renderer takes only types from electron/ (import type); move a value both need to common/.'),
    },
  },
);

/**
 * Rules for code that runs outside Node (the renderer, common/): no Node or Electron module, and from electron/ only
 * types, imported with `import type` (`import { type X }` would still load the module for its side effects).
 */
function noNodeAndHostTypesOnly(noNode, typesOnly, patterns = []) {
  return {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: ['electron', 'electron-store', 'got', 'better-sqlite3', 'pg', 'ws', 'conf'].map((name) => ({ name, message: noNode })),
        patterns: [
          { group: ['node:*'], message: noNode },
          { regex: '^\\.{1,2}/(.*/)?electron/', allowTypeImports: true, message: typesOnly },
          ...patterns,
        ],
      },
    ],
    '@typescript-eslint/no-import-type-side-effects': 'error',
  };
}

/** Selectors for a `.status` or `.statusCode` compared with a number, or looked up in a list of numbers. */
function statusChecks(message) {
  const status = '/^(status|statusCode)$/';
  const number = '/^[0-9]{3}$/';
  const comparison = 'BinaryExpression[operator=/^(===|!==|==|!=|<|<=|>|>=)$/]';
  const sides = [
    ['left', 'right'],
    ['right', 'left'],
  ];
  return [
    ...sides.map(([read, literal]) => `${comparison}[${read}.property.name=${status}][${literal}.raw=${number}]`),
    ...sides.map(([read, literal]) => `${comparison}[${read}.expression.property.name=${status}][${literal}.raw=${number}]`),
    `CallExpression[callee.property.name='includes'][callee.object.elements.0.raw=${number}] MemberExpression[property.name=${status}]`,
    `SwitchStatement[discriminant.property.name=${status}]:has(SwitchCase[test.raw=${number}])`,
  ].map((selector) => ({ selector, message }));
}
