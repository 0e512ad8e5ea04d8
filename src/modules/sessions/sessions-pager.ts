import { Injectable } from '@nestjs/common';
import { realpath } from 'node:fs/promises';
import { normalize } from 'node:path';
import { Clock } from '@/common/clock';
import { RenderedJson } from '@/common/http/rendered-json';
import { SessionsPage } from './session.types';
import { decodeCursor, encodeCursor, SessionFilters, SessionListQuery, SortOrder } from './sessions-cursor';
import { SessionsRepository } from './sessions.repository';

export const DEFAULT_PAGE_SIZE = 50;
/** How long a `directory` filter's real path is reused before the file system is asked again. */
const REAL_PATH_TTL_MS = 5_000;
const REAL_PATHS_KEPT = 1_000;

export interface ListSessionsInput extends SessionFilters {
  limit?: number;
  order?: SortOrder;
  cursor?: string;
}

/**
 * `session.list`: keyset pages over `(time.updated, id)` in the requested order. A cursor carries the
 * filters and an anchor; with a cursor, only `limit` is taken from the query.
 */
@Injectable()
export class SessionsPager {
  private readonly realPaths = new Map<string, { path: string; until: number }>();

  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  /** The page as JSON text: the sessions as the database keeps them rendered, and the cursors. */
  async list(input: ListSessionsInput): Promise<RenderedJson<SessionsPage>> {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
    const query: SessionListQuery = cursor
      ? (({ anchor: _anchor, ...rest }) => rest)(cursor)
      : await this.firstPageQuery(input);
    const rows = await this.sessions.page(query, cursor?.anchor, limit);
    if (rows.length === 0) return new RenderedJson('{"data":[],"cursor":{}}');
    const first = rows[0];
    const last = rows[rows.length - 1];
    const cursors: SessionsPage['cursor'] = {
      previous: encodeCursor({
        ...query,
        anchor: { id: first.id, time: Number(first.time_updated), direction: 'previous' },
      }),
      next: encodeCursor({
        ...query,
        anchor: { id: last.id, time: Number(last.time_updated), direction: 'next' },
      }),
    };
    const data = rows.map((row) => row.info).join(',');
    return new RenderedJson(`{"data":[${data}],"cursor":${JSON.stringify(cursors)}}`);
  }

  private async firstPageQuery(input: ListSessionsInput): Promise<SessionListQuery> {
    const query: SessionListQuery = { order: input.order ?? 'desc' };
    if (input.search !== undefined && input.search !== '') query.search = input.search;
    if (input.parentID !== undefined) query.parentID = input.parentID;
    // Sessions store real paths: a symlinked or `..` spelling finds them too.
    if (input.directory !== undefined) query.directory = await this.realPath(input.directory);
    if (input.project !== undefined) query.project = input.project;
    if (input.subpath !== undefined) query.subpath = input.subpath;
    return query;
  }

  /**
   * The real path of a directory filter (the spelling itself when it does not exist). Resolving takes a
   * file-system call per path component, so a client polling the same list gets the answer of the last
   * few seconds: a symlink re-pointed in that window is seen a moment later.
   */
  private async realPath(directory: string): Promise<string> {
    const now = this.clock.now();
    const known = this.realPaths.get(directory);
    if (known && known.until > now) return known.path;
    const path = await realpath(directory).catch(() => normalize(directory));
    if (this.realPaths.size >= REAL_PATHS_KEPT) this.realPaths.clear();
    this.realPaths.set(directory, { path, until: now + REAL_PATH_TTL_MS });
    return path;
  }
}
