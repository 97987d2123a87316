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
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    // Only main.ts and preload.ts may load Electron at run time; everything else takes it injected.
    files: ['electron/**/*.ts'],
    ignores: ['electron/main.ts', 'electron/preload.ts'],
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
    // The renderer has no Node: it talks to the host through lib/bridge.ts only.
    files: ['renderer/**/*.ts', 'renderer/**/*.svelte'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', 'electron-store', 'got', 'better-sqlite3', 'ws', 'conf'].map((name) => ({ name, message: 'The renderer has no Node; go through lib/bridge.ts.' })),
          patterns: [{ group: ['node:*'], message: 'The renderer has no Node; go through lib/bridge.ts.' }],
        },
      ],
    },
  },
);
