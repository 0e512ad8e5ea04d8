import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..');

/** Every Markdown file of the project but what packages bring (node_modules) and build output. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => anchor(match[1])));
}

/** The links and images of a file, code blocks and inline code left out: `[text](target)` and `![alt](target)`. */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}

describe('the Markdown documents', () => {
  const files = markdownFiles(root);

  it('are found (README, docs/, the test helpers)', () => {
    const names = files.map((file) => relative(root, file));
    expect(names).toEqual(
      expect.arrayContaining(['README.md', 'docs/ARCHITECTURE.md', 'test/helpers/README.md']),
    );
  });

  it('link only to files and headings that exist, images included', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const target of linksOf(file)) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto: — outside the repository
        const [path, hash] = target.split('#');
        const resolved = path ? join(dirname(file), decodeURIComponent(path)) : file;
        const where = `${relative(root, file)} → ${target}`;
        if (!existsSync(resolved)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (hash && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchorsOf(resolved).has(hash))
          broken.push(`${where}: no such heading`);
      }
    }
    expect(broken).toEqual([]);
  });
});
