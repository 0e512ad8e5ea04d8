import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referencedFiles, runTemplateShell } from './command-expansion';

describe('command templates: !`cmd` and @file', () => {
  it('replaces each !`cmd` by what the shell gives, in order', async () => {
    const seen: string[] = [];
    const text = await runTemplateShell('a !`echo 1` b !` ls -la ` c', (command) => {
      seen.push(command);
      return Promise.resolve(`<${command}>`);
    });
    expect(text).toBe('a <echo 1> b <ls -la> c');
    expect(seen).toEqual(['echo 1', 'ls -la']);
  });

  it('finds the files @references name inside the location, once each, and skips the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-refs-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.ts'), 'x');
    writeFileSync(join(dir, 'notes.md'), 'x');
    const text =
      'see @src/a.ts, @notes.md and @src/a.ts; not @missing.ts, me@example.com, `@notes.md` or @../etc';
    expect(await referencedFiles(text, dir)).toEqual([join(dir, 'src', 'a.ts'), join(dir, 'notes.md')]);
  });
});
