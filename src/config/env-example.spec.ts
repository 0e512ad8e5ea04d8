import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('.env.example', () => {
  // Every variable is read through a typed reader (`int(env, 'PORT', 4096)`, `optionalStr(env, …)`).
  it('names every variable the server reads', () => {
    const read = new Set<string>();
    for (const file of sources(join(root, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\b[a-zA-Z]+\(env, '([A-Z][A-Z0-9_]+)'/g)) {
        read.add(match[1]);
      }
    }
    expect(read.size).toBeGreaterThan(30);
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const missing = [...read].filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });
});
