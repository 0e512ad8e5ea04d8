import { realpath, readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { InvalidRequestError } from '@/common/errors';
import { locate, LocatedPath } from '@/common/fs/locate';
import { readEntries, walk } from '@/common/fs/walk';

/** How many entries a search looks at, at most: a huge tree answers from its first part rather than slowly. */
const MAX_SEARCHED = 50_000;

export interface FoundEntry {
  /** Relative to the location, `/`-separated. */
  path: string;
  type: 'file' | 'directory';
}

/** How well a path matches a lower-case query: lower is better, undefined is no match. */
function score(path: string, query: string): number | undefined {
  if (!query) return 0;
  const lower = path.toLowerCase();
  const name = basename(lower);
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  if (name.includes(query)) return 2;
  if (lower.includes(query)) return 3;
  let at = 0;
  for (const char of lower) if (char === query[at]) at++;
  return at === query.length ? 4 : undefined;
}

/**
 * The files and directories of `root` whose path matches `query` (the name first, then the path, then the letters
 * in order), best first, at most `limit`. What `walk` skips (version control, dependencies, builds) is not searched,
 * and links leading outside the location are not offered (they could not be opened).
 * Behind opencode's file pickers: `fs.find` (v2) and `find.files` (v1).
 */
export async function findFiles(
  root: string,
  query: string,
  options: { type?: 'file' | 'directory'; limit: number },
): Promise<FoundEntry[]> {
  const wanted = query.trim().toLowerCase();
  const matches: Array<FoundEntry & { score: number }> = [];
  let searched = 0;
  for await (const entry of walk(root, new AbortController().signal)) {
    if (++searched > MAX_SEARCHED) break;
    if (entry.outside) continue;
    const type = entry.directory ? 'directory' : 'file';
    if (options.type && options.type !== type) continue;
    const rank = score(entry.path, wanted);
    if (rank !== undefined) matches.push({ path: entry.path, type, score: rank });
  }
  matches.sort((a, b) => a.score - b.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  return matches.slice(0, options.limit).map(({ path, type }) => ({ path, type }));
}

/** A path of the location asked for by a client's file route; one leading outside it is a 400 naming `path`. */
export function locateInside(root: string, path: string | undefined): LocatedPath {
  const located = locate(root, path);
  if (located.external) throw new InvalidRequestError('path must stay inside the location', 'path', 'Query');
  return located;
}

/**
 * The files and directories of a directory inside the location (`fs.list`, v1 `file.list`); links to either inside
 * the location are listed as what they lead to, links leading outside it are not.
 */
export async function listDirectory(
  root: string,
  path: string | undefined,
): Promise<Array<FoundEntry & { name: string; absolute: string }>> {
  const located = locateInside(root, path);
  const entries = await readEntries(located.real, await realpath(root)).catch(() => {
    throw new InvalidRequestError(`path is not a directory of the location: ${path}`, 'path', 'Query');
  });
  const prefix = located.display === '.' ? '' : `${located.display}/`;
  return entries
    .filter((entry) => !entry.outside)
    .map((entry) => ({
      name: entry.name,
      path: `${prefix}${entry.name}`,
      absolute: entry.absolute,
      type: entry.directory ? ('directory' as const) : ('file' as const),
    }));
}

/** A file larger than this is not sent whole (`fs.read`). */
const MAX_READ_BYTES = 20 * 1024 * 1024;

const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
};

/** A file of the location with its mime type (`fs.read`); a path outside it, or not a file, is a 400. */
export async function readLocationFile(root: string, path: string): Promise<{ bytes: Buffer; mime: string }> {
  const located = locateInside(root, path);
  const info = await stat(located.real).catch(() => null);
  if (!info?.isFile())
    throw new InvalidRequestError(`path is not a file of the location: ${path}`, 'path', 'Query');
  if (info.size > MAX_READ_BYTES) {
    throw new InvalidRequestError(`path is larger than ${MAX_READ_BYTES} bytes: ${path}`, 'path', 'Query');
  }
  const bytes = await readFile(located.real);
  const known = MIME_TYPES[extname(located.real).toLowerCase()];
  const mime =
    known ?? (bytes.subarray(0, 8192).includes(0) ? 'application/octet-stream' : 'text/plain; charset=utf-8');
  return { bytes, mime };
}
