// ESLint flat config. Prettier decides layout (`.prettierrc.json`), so no rule here is about layout
// except `max-len`, which only catches what Prettier cannot wrap: comments over 120 columns.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Node's globals as this Node has them (`process`, `Buffer`, `fetch`, …), for `no-undef` in the plain JavaScript. */
const nodeGlobals = Object.fromEntries(Object.getOwnPropertyNames(globalThis).map((name) => [name, 'readonly']));

/** Comments stay within Prettier's width; long strings, template literals, regexps and URLs may not. */
const maxLen = [
  'error',
  {
    code: 120,
    ignoreStrings: true,
    ignoreTemplateLiterals: true,
    ignoreRegExpLiterals: true,
    ignoreUrls: true,
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'bench/results/'] },

  // TypeScript with type information: the promise rules are the point of this setup.
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: nodeGlobals,
    },
    rules: {
      'max-len': maxLen,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // `_name` marks what is left out on purpose (a destructured field dropped, an unused parameter).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Rejections forward a caught error or a signal's reason, `unknown` by type; a literal non-Error still fails.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // `async` without `await` is how a handler turns a throw into a rejection and matches a Promise-typed interface.
      '@typescript-eslint/require-await': 'off',
      // `String(unknown)` on peer values is deliberate: error texts and traces quote whatever was sent.
      '@typescript-eslint/no-base-to-string': 'off',
      // Getters of an object literal read their owner's live state through a named alias (`const session = this`).
      '@typescript-eslint/no-this-alias': 'off',
      // A `let` read by a closure before its one assignment (a timer, a handler made after its listener) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Control characters in regexps are the point: terminal output and traces strip or escape them.
      'no-control-regex': 'off',
    },
  },

  // Tests read JSON-RPC answers and fixtures' payloads as `any` on purpose; the checks are their assertions.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'spec-fixtures/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  // Plain JavaScript (bench, scripts, examples, fixtures' servers, test helpers): no type information.
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: nodeGlobals },
    rules: { 'max-len': maxLen },
  },
);
