// Lint for the whole workspace. Module boundaries: common/ imports nothing from backend/ or desktop/,
// no Node built-ins and no runtime packages (it is pure and runs in the browser too).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/out/**', '**/node_modules/**', '**/coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
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
            { group: ['@spades/backend', '@spades/desktop', '**/backend/**', '**/desktop/**'], message: 'common must not import from backend or desktop.' },
            { regex: '^(node:|fs$|path$|crypto$|os$|child_process$|http$|https$|net$)', message: 'common is pure: no Node built-ins or I/O.' },
            { regex: '^(?!\\.)(?!vitest$)(?!fast-check$).+', message: 'common has no runtime dependencies: only relative imports.' },
          ],
        },
      ],
    },
  },
);
