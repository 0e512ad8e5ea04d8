import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Generated files: their size is the generator's. */
const GENERATED = [
  'web/shared/api/console.ts',
  'web/shared/api/instance.ts',
  'src/metadata.ts',
  'src/database/migrations/**',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/metadata.ts', 'src/database/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  // The scripts: JavaScript that node runs as it is (typed by JSDoc, checked by `tsc -p scripts`).
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: globals.node } },
  // Small files and functions (docs/ARCHITECTURE.md): a file over 450 lines or a function over 80 wants splitting.
  {
    files: ['{src,web,test,bench}/**/*.{ts,tsx}'],
    ignores: GENERATED,
    rules: { 'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Not tests: a describe() callback holds its tests and is long by nature.
    files: ['{src,web,bench}/**/*.{ts,tsx}'],
    ignores: [...GENERATED, '**/*.spec.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
);
