import { Client } from 'pg';
import request from 'supertest';
import { bearer, Person, signupTeam } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';

const API_KEY = 'BSA-plaintext-search-key-5eK3';
const NEW_KEY = 'BSA-rotated-search-key-Zq81';

/** A workspace's web search providers: owners and admins manage them, the key is write-only and stored encrypted. */
describe('console: /console/api/orgs/{org}/search-providers', () => {
  let t: TestApp;
  let db: Client;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let allKey: string;
  const answers: string[] = [];
  const keep = (res: request.Response) => {
    answers.push(JSON.stringify({ headers: res.headers, body: res.body }));
    return res;
  };
  const base = () => `/console/api/orgs/${owner.org}/search-providers`;

  beforeAll(async () => {
    // No OUTPOST_CONNECTIONS_ALLOW: loopback and private base URLs are refused.
    t = await createTestApp({ env: { OUTPOST_SECRET_KEY: 'search-providers-secret-0123456789abcdef' } });
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    ({ owner, admin, member, allKey } = await signupTeam(t));
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
    for (const answer of answers) {
      expect(answer).not.toContain(API_KEY);
      expect(answer).not.toContain(NEW_KEY);
    }
  });

  it('an owner adds one; the answer shows the key by its last four only, and the table holds it encrypted', async () => {
    const res = keep(
      await owner.post(base(), { kind: 'brave', name: 'Brave', api_key: API_KEY, price_per_1000: 5 }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Brave',
      kind: 'brave',
      base_url: 'https://api.search.brave.com/res/v1',
      api_key_last4: '5eK3',
      price_per_1000: 5,
      model: `search/${res.body.id}`,
    });
    expect(res.body.id).toMatch(/^srch_/);
    const row = (
      await db.query(
        `SELECT credential_cipher, credential_last4, price_per_1000_micro_cents::text AS price
           FROM search_provider WHERE id = $1`,
        [res.body.id],
      )
    ).rows[0] as { credential_cipher: Buffer; credential_last4: string; price: string };
    expect(row.credential_cipher.includes(Buffer.from(API_KEY))).toBe(false);
    expect(row.credential_cipher.length).toBeGreaterThan(API_KEY.length + 28);
    expect(row.price).toBe('500000000');
    const dump = (await db.query('SELECT * FROM search_provider')).rows;
    expect(JSON.stringify(dump)).not.toContain(API_KEY);
  });

  it('lists, reads, changes (a new key replaces the old) and deletes, each change audited without the key', async () => {
    const created = keep(await admin.post(base(), { kind: 'tavily', api_key: API_KEY }));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const list = keep(await owner.get(base()));
    expect(list.status).toBe(200);
    expect(list.body.map((p: { id: string }) => p.id)).toContain(id);
    expect(keep(await t.http.get(base()).set('authorization', bearer(allKey))).status).toBe(200);
    const patched = keep(await owner.patch(`${base()}/${id}`, { api_key: NEW_KEY, price_per_1000: 8 }));
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ api_key_last4: 'Zq81', price_per_1000: 8 });
    for (const [body, field] of [
      [{ price_per_1000: -1 }, 'price_per_1000'],
      [{ api_key: '' }, 'api_key'],
      [{ kind: 'exa' }, 'kind'],
    ] as const) {
      const wrong = keep(await owner.patch(`${base()}/${id}`, body));
      expect([field, wrong.status, wrong.body.field]).toEqual([field, 400, field]);
    }
    expect(keep(await owner.del(`${base()}/${id}`)).status).toBe(204);
    expect(keep(await owner.get(`${base()}/${id}`)).status).toBe(404);
    const audit = keep(await owner.get(`/console/api/orgs/${owner.org}/audit?limit=200`));
    const actions = (audit.body.entries as Array<{ action: string; target: { id: string } }>)
      .filter((entry) => entry.target.id === id)
      .map((entry) => entry.action);
    expect(actions.sort()).toEqual([
      'search_provider.created',
      'search_provider.deleted',
      'search_provider.updated',
    ]);
  });

  it('members and keys may not change them; members may not read them', async () => {
    expect(keep(await member.post(base(), { kind: 'brave', api_key: API_KEY })).status).toBe(403);
    expect(keep(await member.get(base())).status).toBe(403);
    const byKey = keep(
      await t.http
        .post(base())
        .set('authorization', bearer(allKey))
        .send({ kind: 'brave', api_key: API_KEY }),
    );
    expect(byKey.status).toBe(403);
  });

  it('refuses with 400 naming the field: an unknown kind, a missing or extra key, a SearXNG without address, a bad price', async () => {
    for (const [body, field] of [
      [{ kind: 'google', api_key: API_KEY }, 'kind'],
      [{ kind: 'exa' }, 'api_key'],
      [{ kind: 'searxng', base_url: 'https://searx.example.com', api_key: API_KEY }, 'api_key'],
      [{ kind: 'searxng' }, 'base_url'],
      [{ kind: 'brave', api_key: API_KEY, base_url: 'ftp://x' }, 'base_url'],
      [{ kind: 'brave', api_key: API_KEY, price_per_1000: -1 }, 'price_per_1000'],
    ] as const) {
      const res = keep(await owner.post(base(), body));
      expect([field, res.status, res.body.field]).toEqual([field, 400, field]);
    }
  });

  it('a base URL on loopback or the private network is refused unless OUTPOST_CONNECTIONS_ALLOW allows it', async () => {
    for (const url of ['http://127.0.0.1:8888', 'http://10.0.0.5', 'http://[::1]:8080']) {
      const res = keep(await owner.post(base(), { kind: 'searxng', base_url: url }));
      expect([url, res.status, res.body.field]).toEqual([url, 400, 'base_url']);
      expect(res.body.message).toContain('OUTPOST_CONNECTIONS_ALLOW');
    }
    const allowed = await createTestApp({
      env: {
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        OUTPOST_SECRET_KEY: 'search-providers-secret-0123456789abcdef',
      },
      databaseUrl: t.databaseUrl,
    });
    try {
      const res = await allowed.http
        .post(base())
        .set('cookie', owner.cookie)
        .set('origin', allowed.url)
        .send({ kind: 'searxng', base_url: 'http://127.0.0.1:8888' });
      expect(res.status).toBe(201);
    } finally {
      await allowed.close();
    }
  });
});
