import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { SessionInfo } from '@/modules/sessions/session.types';
import { gitRepo } from '../../helpers/git-repo';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { hasNoNulls, recordEvents, tempDir } from '../../helpers/sessions';

/*
 * Sessions are read as the JSON the database renders for each row (a trigger on every insert and update).
 * These tests set columns directly and check that get, list and events all show exactly what the row holds.
 */
describe('Session.Info as the database renders it', () => {
  let t: TestApp;
  let db: Client;
  const home = tempDir();
  const repo = gitRepo();
  mkdirSync(join(repo.root, 'pkg', 'web'), { recursive: true });
  const auth = basic();

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: home } });
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const get = async (id: string) => {
    const res = await t.http.get(`/api/session/${id}`).set('authorization', auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.body.data as SessionInfo;
  };
  const listed = async (query: string) => {
    const res = await t.http.get(`/api/session?${query}`).set('authorization', auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.body.data as SessionInfo[];
  };
  const create = async (body: Record<string, unknown> = {}) => {
    const res = await t.http.post('/api/session').set('authorization', auth).send(body);
    expect(res.status).toBe(200);
    return res.body.data as SessionInfo;
  };

  it('shows every member of a fully set row, texts escaped, numbers exact', async () => {
    const parent = await create({ title: 'parent' });
    const fork = await t.http
      .post(`/api/session/${parent.id}/fork`)
      .set('authorization', auth)
      .send({})
      .expect(200);
    const child = fork.body.data as SessionInfo;
    const title = 'He said "hi"\n\tback\\slash ✓ 🚀 \u0001 </script>';
    const metadata = { ticket: null, list: [1, 2.5, 'x', true], deep: { quote: 'a"b', empty: {} } };
    const model = { id: 'claude-sonnet', providerID: 'anthropic', variant: 'high' };
    const permissions = [{ action: 'edit', resource: '*.md', effect: 'deny' }];
    await db.query(
      `UPDATE session SET title = $2, metadata = $3, model = $4, permissions = $5, agent = 'plan',
         directory = $6, subpath = 'pkg/web', project_id = 'prj_1', outcome = 'interrupted',
         cost = 123456789, tokens_input = 9007199254740991, tokens_output = 2, tokens_reasoning = 3,
         tokens_cache_read = 4, tokens_cache_write = 5,
         time_created = 1000, time_updated = 2000, time_idle = 3000, time_viewed = 4000, time_archived = 5000
       WHERE id = $1`,
      [
        child.id,
        title,
        JSON.stringify(metadata),
        JSON.stringify(model),
        JSON.stringify(permissions),
        join(repo.root, 'pkg', 'web'),
      ],
    );
    const expected: SessionInfo = {
      id: child.id,
      parentID: parent.id,
      fork: { sessionID: parent.id },
      projectID: 'prj_1',
      agent: 'plan',
      model,
      outcome: 'interrupted',
      cost: 1.23456789,
      tokens: { input: 9007199254740991, output: 2, reasoning: 3, cache: { read: 4, write: 5 } },
      time: { created: 1000, updated: 2000, idle: 3000, viewed: 4000, archived: 5000 },
      title,
      location: { directory: join(repo.root, 'pkg', 'web') },
      subpath: 'pkg/web',
      metadata,
      permissions: permissions as SessionInfo['permissions'],
    };
    expect(await get(child.id)).toEqual(expected);
    const [item] = await listed(`parentID=${parent.id}`);
    expect(item).toEqual(expected);
  });

  it('leaves optional members out, never null, when the row has none', async () => {
    const session = await create({ title: 'plain' });
    await db.query(`UPDATE session SET agent = NULL WHERE id = $1`, [session.id]);
    const info = await get(session.id);
    expect(Object.keys(info).sort()).toEqual(
      ['cost', 'id', 'location', 'projectID', 'time', 'title', 'tokens'].sort(),
    );
    expect(Object.keys(info.time).sort()).toEqual(['created', 'updated']);
    const [item] = await listed('search=plain');
    expect(item).toEqual(info);
    expect(hasNoNulls(item)).toBe(true);
  });

  it('turns micro-cents into the same dollars as dividing by 100,000,000', async () => {
    const micro = [0, 1, 10, 150, 33_333_333, 100_000_000, 123_456_789, 98_765_432_123];
    const project = 'prj_costs';
    for (const cost of micro) {
      const session = await create({ title: `cost ${cost}` });
      await db.query(`UPDATE session SET cost = $2, project_id = $3 WHERE id = $1`, [
        session.id,
        cost,
        project,
      ]);
    }
    const costs = (await listed(`project=${project}&order=asc&limit=100`)).map((s) => s.cost);
    expect(costs.sort((a, b) => a - b)).toEqual(micro.map((c) => c / 100_000_000));
  });

  it('shows a change written straight to the database (another process, a hand-run UPDATE)', async () => {
    const session = await create({ title: 'before' });
    await db.query(`UPDATE session SET title = 'after', time_archived = 42 WHERE id = $1`, [session.id]);
    const info = await get(session.id);
    expect(info.title).toBe('after');
    expect(info.time.archived).toBe(42);
  });

  it('publishes the same info it answers with', async () => {
    const events = recordEvents(t);
    const session = await create({ title: 'evented', metadata: { n: 1 } });
    await t.http
      .patch(`/api/session/${session.id}`)
      .set('authorization', auth)
      .send({ title: 'renamed' })
      .expect(204);
    const now = await get(session.id);
    const infos = events
      .filter((e) => e.type === 'session.created' || e.type === 'session.updated')
      .map((e) => (e.data as { info: SessionInfo }).info);
    expect(infos).toEqual([session, now]);
    expect(now.title).toBe('renamed');
  });
});
