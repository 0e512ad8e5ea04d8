import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

describe('`outpost --help`', () => {
  it('lists every command the CLI has (login and logout included)', () => {
    // The commands, as src/cli.ts maps them: `  name: async () => …`.
    const commands = [
      ...readFileSync(join(root, 'src', 'cli.ts'), 'utf8').matchAll(/^ {2}(\w+): async/gm),
    ].map((match) => match[1]);
    expect(commands).toEqual(expect.arrayContaining(['serve', 'pair', 'console', 'login', 'logout']));
    const help = spawnSync(process.execPath, [join(root, 'bin', 'outpost.js'), '--help'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'help-')),
      },
      encoding: 'utf8',
    });
    expect(help.status).toBe(0);
    const listed = [...help.stdout.matchAll(/^ {2}(\w+) {2,}/gm)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...commands].sort());
  });
});
