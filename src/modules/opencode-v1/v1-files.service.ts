import { Injectable } from '@nestjs/common';
import { stat } from 'node:fs/promises';
import { InvalidRequestError } from '../../common/errors';
import { findFiles, listDirectory, locateInside } from '../locations/location-files';
import { LocationsService } from '../locations/locations.service';
import { readText } from '../runtime/tools/read.tool';
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
