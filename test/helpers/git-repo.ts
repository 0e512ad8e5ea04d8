import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh git repository with one commit: its (real) root and its root commit hash. */
export function gitRepo(): { root: string; commit: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-repo-')));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  git('init', '-q');
  writeFileSync(join(root, 'README.md'), 'hello\n');
  git('add', '.');
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qm', 'first');
  return { root, commit: git('rev-list', '--max-parents=0', 'HEAD') };
}
