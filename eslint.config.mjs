import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    ignores: ['**/dist', '**/out-tsc', '**/node_modules', 'tmp/**', 'data/**'],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.cts', '**/*.mjs', '**/*.mts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          banTransitiveDependencies: false,
          allow: ['^.*/eslint(\\.base)?\\.config\\.[cm]?[jt]s$'],
          depConstraints: [
            { sourceTag: 'scope:panel-api', onlyDependOnLibsWithTags: ['scope:panel-api', 'scope:shared'] },
            { sourceTag: 'scope:repo-monitor', onlyDependOnLibsWithTags: ['scope:repo-monitor', 'scope:shared'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:isomorphic-lib'] },
            // Web libraries (React, browser APIs) are for web apps only: the services and their
            // libraries must not import them, and web code only imports web libraries.
            { sourceTag: 'type:app', notDependOnLibsWithTags: ['type:web-lib', 'type:web-app'] },
            { sourceTag: 'type:lib', notDependOnLibsWithTags: ['type:web-lib', 'type:web-app'] },
            { sourceTag: 'type:web-lib', onlyDependOnLibsWithTags: ['type:web-lib', 'type:isomorphic-lib'] },
            { sourceTag: 'type:web-app', onlyDependOnLibsWithTags: ['type:web-lib', 'type:isomorphic-lib'] },
            // Plain data and functions without Node or browser APIs (the panel's texts): for services
            // and web apps alike, and importing nothing but their own kind.
            { sourceTag: 'type:isomorphic-lib', onlyDependOnLibsWithTags: ['type:isomorphic-lib'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
