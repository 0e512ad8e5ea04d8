import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { walk } from '@/common/fs/walk';

/** The project's rule files, by preference: the first name found anywhere up the tree wins. */
const LOCAL_FILES = ['AGENTS.md', 'CLAUDE.md'];
/** An instruction file larger than this is cut (a generated file listed by mistake must not fill the context). */
const MAX_FILE_BYTES = 64 * 1024;
/** At most this many files from one `instructions` glob. */
const MAX_GLOB_MATCHES = 50;

export interface InstructionSources {
  /** The location directory. */
  directory: string;
  /** The project root (the repository's root), where the search up the tree stops. */
  root: string;
  /** The global config directory. */
  configDir: string;
  /** The config's `instructions`: paths or globs, relative to the location (searched up to the root). */
  patterns: string[];
}

/**
 * The instruction files of a location, in a stable order: AGENTS.md (else CLAUDE.md) in the location and each
 * directory above it up to the project root, nearest first; the global AGENTS.md of the config directory; then
 * the files the config's `instructions` name, in the order listed. Each file appears once.
 */
export async function findInstructionFiles(sources: InstructionSources): Promise<string[]> {
  const found: string[] = [];
  const add = (file: string) => {
    if (!found.includes(file)) found.push(file);
  };
  const dirs = upTo(sources.directory, sources.root);
  for (const name of LOCAL_FILES) {
    const matches = (await Promise.all(dirs.map((dir) => isFile(join(dir, name))))).flatMap((ok, i) =>
      ok ? [join(dirs[i], name)] : [],
    );
    if (matches.length === 0) continue;
    matches.forEach(add);
    break;
  }
  const global = join(sources.configDir, 'AGENTS.md');
  if (await isFile(global)) add(global);
  for (const pattern of sources.patterns) {
    for (const file of await expand(pattern, dirs)) add(file);
  }
  return found;
}

/** Each file as the model reads it: `Instructions from: <path>` and its text (cut when very long). */
export async function readInstructions(files: string[]): Promise<string[]> {
  const texts = await Promise.all(
    files.map(async (file) => {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined || text.trim() === '') return undefined;
      const body = text.length > MAX_FILE_BYTES ? `${text.slice(0, MAX_FILE_BYTES)}\n…(cut)` : text;
      return `Instructions from: ${file}\n${body.trimEnd()}`;
    }),
  );
  return texts.filter((text): text is string => text !== undefined);
}

/** The directory and its parents up to `root` (only the directory itself when it is not under `root`). */
function upTo(directory: string, root: string): string[] {
  const rel = relative(root, directory);
  if (rel.startsWith('..') || isAbsolute(rel)) return [directory];
  const dirs: string[] = [];
  for (let dir = directory; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (dir === root || dirname(dir) === dir) return dirs;
  }
}

/** The files a pattern names: `~/` and absolute patterns as they are, relative ones in each directory up. */
async function expand(pattern: string, dirs: string[]): Promise<string[]> {
  if (pattern.startsWith('~/')) pattern = join(homedir(), pattern.slice(2));
  const bases = isAbsolute(pattern) ? [''] : dirs;
  const out: string[] = [];
  for (const base of bases) {
    const full = base ? join(base, pattern) : pattern;
    if (!picomatch.scan(full).isGlob) {
      if (await isFile(full)) out.push(full);
      continue;
    }
    out.push(...(await globFiles(full)));
  }
  return out;
}

/** The files matching an absolute glob, searched from its literal directory prefix, sorted. */
async function globFiles(pattern: string): Promise<string[]> {
  const { base, glob } = picomatch.scan(pattern);
  if (!base || !(await isDirectory(base))) return [];
  const matches = picomatch(glob, { dot: true });
  const found: string[] = [];
  if (!glob.includes('/') && !glob.includes('**')) {
    const names = await readdir(base).catch(() => [] as string[]);
    for (const name of names.sort()) {
      if (matches(name) && (await isFile(join(base, name)))) found.push(join(base, name));
    }
  } else {
    try {
      // Links are followed wherever they lead: the config names these files, and could name any path as it is.
      for await (const entry of walk(base, AbortSignal.timeout(2_000))) {
        if (!entry.directory && matches(entry.path.split('/').join(sep))) found.push(entry.absolute);
        if (found.length >= MAX_GLOB_MATCHES) break;
      }
    } catch {
      // a tree too large to search in time: what was found so far
    }
  }
  return found.slice(0, MAX_GLOB_MATCHES);
}

function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isDirectory(),
    () => false,
  );
}
