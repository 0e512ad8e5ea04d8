import { Injectable } from '@nestjs/common';
import { realpath } from 'node:fs/promises';
import { normalize } from 'node:path';
import { toSessionInfo } from './session.mapper';
import { SessionsPage } from './session.types';
import { decodeCursor, encodeCursor, SessionFilters, SessionListQuery, SortOrder } from './sessions-cursor';
import { SessionsRepository } from './sessions.repository';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

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
  constructor(private readonly sessions: SessionsRepository) {}

  async list(input: ListSessionsInput): Promise<SessionsPage> {
    const limit = input.limit ?? DEFAULT_PAGE_SIZE;
    const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
    const query: SessionListQuery = cursor
      ? (({ anchor: _anchor, ...rest }) => rest)(cursor)
      : await this.firstPageQuery(input);
    const rows = await this.sessions.page(query, cursor?.anchor, limit);
    if (rows.length === 0) return { data: [], cursor: {} };
    const first = rows[0];
    const last = rows[rows.length - 1];
    return {
      data: rows.map(toSessionInfo),
      cursor: {
        previous: encodeCursor({
          ...query,
          anchor: { id: first.id, time: Number(first.time_updated), direction: 'previous' },
        }),
        next: encodeCursor({
          ...query,
          anchor: { id: last.id, time: Number(last.time_updated), direction: 'next' },
        }),
      },
    };
  }

  private async firstPageQuery(input: ListSessionsInput): Promise<SessionListQuery> {
    const query: SessionListQuery = { order: input.order ?? 'desc' };
    if (input.search !== undefined && input.search !== '') query.search = input.search;
    if (input.parentID !== undefined) query.parentID = input.parentID;
    // Sessions store real paths: a symlinked or `..` spelling finds them too.
    if (input.directory !== undefined) {
      query.directory = await realpath(input.directory).catch(() => normalize(input.directory!));
    }
    if (input.project !== undefined) query.project = input.project;
    if (input.subpath !== undefined) query.subpath = input.subpath;
    return query;
  }
}
