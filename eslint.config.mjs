// Lint for the whole workspace. Module boundaries: common/ imports nothing from backend/ or desktop/,
// no Node built-ins and no runtime packages (it is pure and runs in the browser too).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/out/**', '**/node_modules/**', '**/coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // No import cycles (issue #29): a module graph that runs both ways cannot be read or split one file at a time.
  // Type-only imports are erased at build time and do not count; packages are not followed (`ignoreExternal`).
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.d.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Typed socket handlers (issue #29): every gateway payload is typed from common's event map, so a handler for an
  // event that is not in the protocol, or one that takes an untyped body, does not pass lint.
  {
    files: ['backend/src/**/*.gateway.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MethodDefinition:has(Decorator > CallExpression[callee.name="SubscribeMessage"]) > FunctionExpression > Identifier:has(Decorator > CallExpression[callee.name="MessageBody"]):not(:has(TSTypeReference > Identifier[name="ClientPayload"]))',
          message: "Type a socket handler's @MessageBody() as ClientPayload<'<event>'> from @spades/common.",
        },
      ],
    },
  },
  {
    files: ['common/src/**/*.ts'],
    ignores: ['common/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@spades/backend', '@spades/desktop', '**/backend/**', '**/desktop/**'],
              message: 'common must not import from backend or desktop.',
            },
            {
              regex: '^(node:|fs$|path$|crypto$|os$|child_process$|http$|https$|net$)',
              message: 'common is pure: no Node built-ins or I/O.',
            },
            // One exception: @noble/hashes (audited, pure JS, no I/O) is the SHA-256 under the provably-fair deal
            // (rules/sha256.ts), so server, renderer and bots hash alike (issue #29).
            {
              regex: '^(?!\\.)(?!vitest$)(?!fast-check$)(?!@noble/hashes/(sha2|utils)$).+',
              message: 'common has no runtime dependencies: only relative imports.',
            },
          ],
        },
      ],
    },
  },
);
