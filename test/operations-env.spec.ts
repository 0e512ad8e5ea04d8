import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');

/** The variables `.env.example` sets or shows commented out (`NAME=` or `# NAME=` at a line's start). */
function exampleVariables(): string[] {
  const example = readFileSync(join(root, '.env.example'), 'utf8');
  return [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
}

/** The "Configuration" section of docs/operations.md. */
function configurationSection(): string {
  const doc = readFileSync(join(root, 'docs', 'operations.md'), 'utf8');
  const start = doc.indexOf('\n## Configuration\n');
  expect(start).toBeGreaterThan(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe('docs/operations.md', () => {
  it('documents every variable of .env.example in its Configuration section', () => {
    const section = configurationSection();
    const variables = exampleVariables();
    expect(variables.length).toBeGreaterThan(30);
    expect(variables.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });

  it('names no variable in its Configuration table that .env.example lacks', () => {
    const variables = new Set(exampleVariables());
    const named = configurationSection()
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]));
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((name) => !variables.has(name))).toEqual([]);
  });
});
