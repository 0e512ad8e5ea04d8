import { Injectable } from '@nestjs/common';
import { listDirectory } from '../locations/location-files';

/** A location's files as opencode's v2 `fs.*` operations list them. */
@Injectable()
export class LocationFsService {
  /** The entries of a directory inside the location, by path; a path that leads outside it is refused. */
  async list(directory: string, path?: string) {
    const entries = await listDirectory(directory, path);
    return entries
      .map((entry) => ({ path: entry.path, type: entry.type }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }
}
