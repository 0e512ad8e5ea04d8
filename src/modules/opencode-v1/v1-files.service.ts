import { Injectable } from '@nestjs/common';
import { stat } from 'node:fs/promises';
import { InvalidRequestError } from '@/common/errors';
import { findFiles, listDirectory, locateInside } from '../locations/location-files';
import { LocationsService } from '../locations/locations.service';
import { grepTool } from '../runtime/tools/grep.tool';
import { readText } from '../runtime/tools/read.tool';
import { ToolError } from '../runtime/tools/tool.errors';
import { IGNORED_DIRECTORIES } from '../runtime/tools/walk';
import { V1FindFilesQueryDto } from './dto/v1-file.dto';

/** A file larger than this is not sent whole to the TUI's viewer. */
const MAX_READ_BYTES = 5 * 1024 * 1024;

/** opencode's v1 file routes (the TUI's `@` file picker, its file list and viewer), on the location's own files. */
@Injectable()
export class V1FilesService {
  constructor(private readonly locations: LocationsService) {}

  /** `GET /find/file`: paths relative to the location matching `query`, best first; directories end with `/`. */
  async find(query: V1FindFilesQueryDto, directory?: string): Promise<string[]> {
    const location = await this.locations.resolve(directory);
    const type = query.dirs === 'false' ? 'file' : query.type;
    const found = await findFiles(location.directory, query.query ?? '', { type, limit: query.limit ?? 10 });
    return found.map((entry) => (entry.type === 'directory' ? `${entry.path}/` : entry.path));
  }

  /**
   * `GET /find` (`find.text`): lines of the location's files matching a regular expression, as opencode answers
   * (ripgrep's match objects). Searched by the grep tool (in a worker, with its time-out and match cap).
   * Submatches are given for a pattern without special characters; others name the whole line.
   */
  async findText(pattern: string, directory?: string) {
    const location = await this.locations.resolve(directory);
    let result;
    try {
      result = await grepTool.run(
        { pattern },
        { directory: location.directory, signal: AbortSignal.timeout(30_000) },
      );
    } catch (error) {
      if (error instanceof ToolError) throw new InvalidRequestError(error.message, 'pattern', 'Query');
      throw error;
    }
    const literal = /^[^\\^$.*+?()[\]{}|]+$/.test(pattern) ? pattern : undefined;
    return result.output.split('\n').flatMap((line) => {
      const match = /^(.+?):(\d+): (.*)$/.exec(line);
      if (!match) return [];
      const text = match[3];
      const at = literal === undefined ? -1 : text.indexOf(literal);
      return [
        {
          path: { text: match[1] },
          lines: { text: `${text}\n` },
          line_number: Number(match[2]),
          absolute_offset: 0,
          submatches: at >= 0 ? [{ match: { text: literal }, start: at, end: at + literal!.length }] : [],
        },
      ];
    });
  }

  /** `GET /file`: a directory's entries, directories first, as v1 nodes. */
  async list(path: string, directory?: string) {
    const location = await this.locations.resolve(directory);
    const entries = await listDirectory(location.directory, path);
    return entries
      .map((entry) => ({
        ...entry,
        ignored: entry.type === 'directory' && IGNORED_DIRECTORIES.has(entry.name),
      }))
      .sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'directory' ? -1 : 1));
  }

  /** `GET /file/content`: a file's text; a binary file's content is empty. */
  async read(path: string, directory?: string): Promise<{ type: 'text' | 'binary'; content: string }> {
    const location = await this.locations.resolve(directory);
    const located = locateInside(location.directory, path);
    const info = await stat(located.real).catch(() => null);
    if (!info?.isFile()) {
      throw new InvalidRequestError(`path is not a file of the location: ${path}`, 'path', 'Query');
    }
    if (info.size > MAX_READ_BYTES) {
      throw new InvalidRequestError(`path is larger than ${MAX_READ_BYTES} bytes: ${path}`, 'path', 'Query');
    }
    const content = await readText(located.real);
    return content === null ? { type: 'binary', content: '' } : { type: 'text', content };
  }
}
