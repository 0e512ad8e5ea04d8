import { symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { descendingId } from '@/common/ids';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { tempDir } from '../../helpers/sessions';

interface Seeded {
  id: string;
  parentId: string | null;
  directory: string;
  projectId: string;
  subpath: string;
  title: string;
  time: number;
}

const T0 = 1_700_000_000_000;
const COUNT = 520;

/** Order of the list: time.updated, then id, both descending (or both ascending). */
function ordered(rows: Seeded[], order: 'asc' | 'desc'): string[] {
  const sorted = [...rows].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return (order === 'asc' ? sorted : sorted.reverse()).map((row) => row.id);
}

describe('session.list: keyset paging and filters', () => {
  let t: TestApp;
  const dirA = tempDir();
  const dirB = tempDir();
  const auth = basic();
  const seeded: Seeded[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: dirA } });
    for (let i = 0; i < COUNT; i++) {
      const even = i % 2 === 0;
      seeded.push({
        id: descendingId('ses', T0 + i),
        // Every tenth session is a child of the one before it.
        parentId: i % 10 === 9 ? seeded[i - 1].id : null,
        directory: even ? dirA : dirB,
        projectId: even ? 'proj-a' : 'proj-b',
        subpath: i % 4 === 0 ? 'web' : '',
        title: i % 50 === 0 ? `Fix the NEEDLE ${i}` : i === 7 ? 'Discount 100%_off' : `Session ${i}`,
        // Groups of three share a time: the id breaks the tie.
        time: T0 + Math.floor(i / 3) * 1000,
      });
    }
    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    await db.query(
      `INSERT INTO session (id, parent_id, project_id, directory, subpath, agent, title, time_created, time_updated)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::text[], $5::text[], $6::varchar[],
         $7::text[], $8::bigint[], $8::bigint[])`,
      [
        seeded.map((s) => s.id),
        seeded.map((s) => s.parentId),
        seeded.map((s) => s.projectId),
        seeded.map((s) => s.directory),
        seeded.map((s) => s.subpath),
        seeded.map(() => 'build'),
        seeded.map((s) => s.title),
        seeded.map((s) => s.time),
      ],
    );
    await db.end();
  });
  afterAll(() => t.close());

  const list = async (query: string) => {
    const res = await t.http.get(`/api/session?${query}`).set('authorization', auth);
    expect(res.status).toBe(200);
    return res.body as {
      data: Array<{ id: string; time: { updated: number }; location: { directory: string } }>;
      cursor: Record<string, string>;
    };
  };
  const createOne = async () => {
    const res = await t.http.post('/api/session').set('authorization', auth).send({ title: 'concurrent' });
    expect(res.status).toBe(200);
    return res.body.data.id as string;
  };

  /**
   * Follows `cursor[direction]` from the first page until an empty page; pages in visiting order.
   * `during` runs after each of the first 12 pages (so a walk towards the newest end still ends).
   */
  async function walk(first: string, direction: 'next' | 'previous', during?: () => Promise<unknown>) {
    const pages: string[][] = [];
    let page = await list(first);
    let last = page;
    while (page.data.length > 0) {
      pages.push(page.data.map((s) => s.id));
      expect(Object.keys(page.cursor).sort()).toEqual(['next', 'previous']);
      if (pages.length <= 12) await during?.();
      last = page;
      page = await list(`limit=37&cursor=${page.cursor[direction]}`);
    }
    expect(page).toEqual({ data: [], cursor: {} });
    return { pages, last };
  }

  /** The whole list right now, in one page. */
  const snapshot = async (query = '') => (await list(`limit=1000${query}`)).data.map((s) => s.id);

  it('walks forward newest first across all pages, unmoved by sessions created meanwhile', async () => {
    const before = await snapshot();
    expect(before).toEqual(ordered(seeded, 'desc'));
    const created: string[] = [];
    const { pages } = await walk('limit=37', 'next', async () => created.push(await createOne()));
    expect(pages[0]).toHaveLength(37);
    expect(pages.flat()).toEqual(before);
    expect(created.length).toBeGreaterThan(10);
  });

  it('walks forward oldest first; sessions created meanwhile only appear after every older one', async () => {
    const before = await snapshot('&order=asc');
    const created: string[] = [];
    const { pages } = await walk('limit=37&order=asc', 'next', async () => created.push(await createOne()));
    const seen = pages.flat();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, before.length)).toEqual(before);
    expect(seen.slice(before.length).every((id) => created.includes(id))).toBe(true);
  });

  it('walks back with `previous` from the last page to the first, keeping the order inside pages', async () => {
    const before = await snapshot();
    const { last } = await walk('limit=37', 'next');
    const created: string[] = [];
    const { pages } = await walk(`limit=37&cursor=${last.cursor.previous}`, 'previous', async () =>
      created.push(await createOne()),
    );
    const seen = [...pages]
      .reverse()
      .flat()
      .concat(last.data.map((s) => s.id));
    expect(new Set(seen).size).toBe(seen.length);
    // Sessions created on the way back are the newest: they come first, before everything that existed.
    expect(seen.slice(seen.length - before.length)).toEqual(before);
    expect(seen.slice(0, seen.length - before.length).every((id) => created.includes(id))).toBe(true);
    // A page going back holds the items just before the anchor, still newest first.
    expect(pages[0]).toEqual(
      before.slice(before.length - last.data.length - 37, before.length - last.data.length),
    );
  });

  it('goes back and forth between two pages to the same items', async () => {
    const first = await list('limit=25&order=asc');
    const second = await list(`limit=25&cursor=${first.cursor.next}`);
    const back = await list(`limit=25&cursor=${second.cursor.previous}`);
    expect(back.data.map((s) => s.id)).toEqual(first.data.map((s) => s.id));
    const forward = await list(`limit=25&cursor=${back.cursor.next}`);
    expect(forward.data.map((s) => s.id)).toEqual(second.data.map((s) => s.id));
    expect((await list(`limit=25&cursor=${first.cursor.previous}`)).data).toEqual([]);
  });

  it('returns the newest 50 by default', async () => {
    const page = await list('');
    expect(page.data.map((s) => s.id)).toEqual((await snapshot()).slice(0, 50));
  });

  it('answers every page size from 1 to 300 with that many sessions, past the cap on prepared statements', async () => {
    const all = await snapshot();
    expect(all.length).toBeGreaterThanOrEqual(300);
    // Each page size is its own SQL text; past the first 256 texts the statements run unprepared.
    for (let limit = 1; limit <= 300; limit++) {
      const page = await list(`limit=${limit}`);
      expect(page.data.map((s) => s.id)).toEqual(all.slice(0, limit));
    }
  });

  it('finds sessions by a symlinked spelling of their directory, and follows the link when it moves', async () => {
    const link = join(tempDir(), 'link');
    symlinkSync(dirB, link);
    const directories = async () =>
      new Set(
        (await list(`limit=1000&directory=${encodeURIComponent(link)}`)).data.map(
          (s) => s.location.directory,
        ),
      );
    expect(await directories()).toEqual(new Set([dirB]));
    unlinkSync(link);
    symlinkSync(dirA, link);
    // The real path of the last few seconds is reused: a busy list does not stat the path on every request.
    expect(await directories()).toEqual(new Set([dirB]));
    t.clock.advance(5_001);
    expect(await directories()).toEqual(new Set([dirA]));
  });

  it('filters by directory, project, subpath, parent and title; a cursor keeps its filters', async () => {
    const byDir = await snapshot(`&directory=${encodeURIComponent(dirB)}`);
    expect(byDir).toEqual(
      ordered(
        seeded.filter((s) => s.directory === dirB),
        'desc',
      ),
    );
    const page = await list(`limit=10&directory=${encodeURIComponent(dirB)}`);
    // The query's filters are ignored next to a cursor.
    const next = await list(`limit=10&directory=${encodeURIComponent(dirA)}&cursor=${page.cursor.next}`);
    expect(next.data.map((s) => s.id)).toEqual(byDir.slice(10, 20));

    expect(await snapshot('&project=proj-a&subpath=web')).toEqual(
      ordered(
        seeded.filter((s) => s.projectId === 'proj-a' && s.subpath === 'web'),
        'desc',
      ),
    );
    expect(await snapshot('&project=proj-b')).toEqual(
      ordered(
        seeded.filter((s) => s.projectId === 'proj-b'),
        'desc',
      ),
    );
    const roots = await snapshot('&parentID=null');
    expect(roots).toHaveLength((await snapshot()).length - COUNT / 10);
    expect(roots.every((id) => !seeded.some((s) => s.id === id && s.parentId))).toBe(true);
    const parent = seeded[8].id;
    expect(await snapshot(`&parentID=${parent}`)).toEqual([seeded[9].id]);
    expect(await snapshot('&search=needle')).toEqual(
      ordered(
        seeded.filter((s) => s.title.includes('NEEDLE')),
        'desc',
      ),
    );
    // `%` and `_` match themselves.
    expect(await snapshot(`&search=${encodeURIComponent('100%_')}`)).toEqual([seeded[7].id]);
    expect(await snapshot(`&search=${encodeURIComponent('%')}`)).toEqual([seeded[7].id]);
  });

  it.each([['0'], ['1001'], ['abc'], ['-1'], ['1.5'], ['']])('answers 400 for limit=%s', async (limit) => {
    const res = await t.http.get(`/api/session?limit=${limit}`).set('authorization', auth);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'limit', kind: 'Query' });
  });

  it.each([
    ['order=sideways', 'order'],
    ['parentID=abc', 'parentID'],
    ['directory=relative/dir', 'directory'],
    ['colour=blue', 'colour'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const res = await t.http.get(`/api/session?${query}`).set('authorization', auth);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field, kind: 'Query' });
  });

  it('answers 400 InvalidCursorError for a garbled or tampered cursor', async () => {
    const { cursor } = await list('limit=5');
    const decoded = JSON.parse(Buffer.from(cursor.next, 'base64url').toString());
    expect(decoded).toMatchObject({ order: 'desc', anchor: { direction: 'next' } });
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad = [
      'not a cursor!',
      cursor.next.slice(0, -3),
      `${cursor.next}x`,
      encode('string'),
      encode({ ...decoded, anchor: { ...decoded.anchor, id: 'ses_nope' } }),
      encode({ ...decoded, anchor: { ...decoded.anchor, time: 'yesterday' } }),
      encode({ ...decoded, anchor: { ...decoded.anchor, direction: 'sideways' } }),
      encode({ ...decoded, order: 'random' }),
      encode({ ...decoded, limit: 5 }),
      encode({ ...decoded, directory: 7 }),
    ];
    for (const value of bad) {
      const res = await t.http
        .get(`/api/session?cursor=${encodeURIComponent(value)}`)
        .set('authorization', auth);
      expect([value, res.status, res.body]).toEqual([
        value,
        400,
        { _tag: 'InvalidCursorError', message: 'Invalid cursor' },
      ]);
    }
  });
});
