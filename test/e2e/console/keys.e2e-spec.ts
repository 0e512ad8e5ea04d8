import { Client } from 'pg';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { KEY_PATTERN } from '@/modules/console-access/token-format';

const README_PATTERN = /^oc_(sk|ut)_[0-9a-f]{12}_[0-9A-Za-z]{38}$/;
const SECRET_KEY = 'k'.repeat(64);

describe('service accounts, API keys and user tokens', () => {
  let t: TestApp;
  let owner: Person;
  let db: Client;

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_SECRET_KEY: SECRET_KEY } });
    owner = await signup(t);
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const user = (key: string) => t.http.get('/console/api/user').set('authorization', bearer(key));
  const saPath = (sa = '') => `/console/api/orgs/${owner.org}/service-accounts${sa ? `/${sa}` : ''}`;

  describe('creating a key', () => {
    it('answers 201 with the key once, in the documented format', async () => {
      const sa = await owner.post(saPath(), { name: 'ci' });
      expect(sa.status).toBe(201);
      expect(sa.body).toEqual({
        id: expect.stringMatching(/^sa_/),
        name: 'ci',
        created_at: expect.any(String),
      });
      const res = await owner.post(`${saPath(sa.body.id)}/keys`, { name: 'deploy', permission: 'all' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^key_/),
        name: 'deploy',
        permission: 'all',
        key: expect.stringMatching(README_PATTERN),
        prefix: expect.stringMatching(/^oc_sk_[0-9a-f]{12}$/),
        expires_at: null,
        created_at: expect.any(String),
        rate_limit: { requests_per_minute: null, tokens_per_minute: null },
        allowed_models: null,
        monthly_budget_dollars: null,
      });
      expect(res.body.key.startsWith(res.body.prefix + '_')).toBe(true);
      expect(KEY_PATTERN.test(res.body.key)).toBe(true);
    });

    it('stores only the public id and an HMAC of the secret; the key is never readable again', async () => {
      const { sa, key, keyId } = await serviceAccountKey(owner, owner.org);
      const list = await owner.get(`${saPath(sa)}/keys`);
      expect(JSON.stringify(list.body)).not.toContain(key.slice(19, 51));
      expect(list.body).toEqual([
        {
          id: keyId,
          name: 'deploy',
          permission: 'all',
          prefix: key.slice(0, 18),
          last4: key.slice(-4),
          created_at: expect.any(String),
          expires_at: null,
          last_used_at: null,
          status: 'active',
          rate_limit: { requests_per_minute: null, tokens_per_minute: null },
          allowed_models: null,
          monthly_budget_dollars: null,
        },
      ]);
      const { rows } = await db.query('SELECT * FROM api_key WHERE id = $1', [keyId]);
      const stored = JSON.stringify(rows[0]);
      const secret = key.slice(19, 51);
      expect(stored).not.toContain(secret);
      expect(rows[0].public_id).toBe(key.slice(6, 18));
      expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
      const audit = await db.query('SELECT * FROM audit_entry');
      expect(JSON.stringify(audit.rows)).not.toContain(secret);
      const members = await owner.get(`/console/api/orgs/${owner.org}/members`);
      expect(JSON.stringify(members.body)).not.toContain(secret);
    });

    it('refuses an expiry in the past and a bad permission with 400, creating nothing', async () => {
      const sa = (await owner.post(saPath(), { name: 'x' })).body.id;
      const past = await owner.post(`${saPath(sa)}/keys`, {
        name: 'k',
        permission: 'all',
        expires_at: '2001-01-01T00:00:00Z',
      });
      expect(past.status).toBe(400);
      expect(past.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'expires_at' });
      const bad = await owner.post(`${saPath(sa)}/keys`, { name: 'k', permission: 'root' });
      expect(bad.status).toBe(400);
      expect((await owner.get(`${saPath(sa)}/keys`)).body).toEqual([]);
    });

    it('answers 404 NotFound for a service account of another workspace', async () => {
      const other = await signup(t);
      const theirs = (await other.post(`/console/api/orgs/${other.org}/service-accounts`, { name: 'x' })).body
        .id;
      const res = await owner.post(`${saPath(theirs)}/keys`, { name: 'k', permission: 'all' });
      expect(res.status).toBe(404);
      expect(res.body._tag).toBe('NotFound');
    });
  });

  describe('the API-key state table', () => {
    it('active → revoked by a signed-in person: the next request gets 401', async () => {
      const { sa, key, keyId } = await serviceAccountKey(owner, owner.org);
      expect((await user(key)).status).toBe(200);
      expect((await owner.del(`${saPath(sa)}/keys/${keyId}`)).status).toBe(204);
      const res = await user(key);
      expect(res.status).toBe(401);
      expect(res.body._tag).toBe('Unauthorized');
      const list = await owner.get(`${saPath(sa)}/keys`);
      expect(list.body[0].status).toBe('revoked');
      expect((await owner.del(`${saPath(sa)}/keys/${keyId}`)).status).toBe(204);
    });

    it('active → revoked (all its keys) by removing the service account: 401 at once', async () => {
      const { sa, key } = await serviceAccountKey(owner, owner.org);
      const second = await owner.post(`${saPath(sa)}/keys`, { name: 'second', permission: 'inference' });
      expect((await user(key)).status).toBe(200);
      expect((await owner.del(saPath(sa))).status).toBe(204);
      expect((await user(key)).status).toBe(401);
      expect((await user(second.body.key)).status).toBe(401);
      const { rows } = await db.query('SELECT revoked_at FROM api_key WHERE service_account_id = $1', [sa]);
      expect(rows).toHaveLength(2);
      expect(rows.every((row) => row.revoked_at !== null)).toBe(true);
      const members = await owner.get(`/console/api/orgs/${owner.org}/members`);
      expect(members.body.map((m: { user_id: string }) => m.user_id)).not.toContain(sa);
      expect((await owner.del(saPath(sa))).status).toBe(404);
    });

    it('active → expired when the expiry passes: 401 from then on, listed as expired', async () => {
      const expiresAt = new Date(t.clock.now() + 3600_000).toISOString();
      const { sa, key } = await serviceAccountKey(owner, owner.org, 'all', { expires_at: expiresAt });
      expect((await user(key)).status).toBe(200);
      t.clock.advance(3600_000 - 1_000);
      expect((await user(key)).status).toBe(200);
      t.clock.advance(1_000);
      const res = await user(key);
      expect(res.status).toBe(401);
      expect(res.body._tag).toBe('Unauthorized');
      expect((await owner.get(`${saPath(sa)}/keys`)).body[0]).toMatchObject({
        status: 'expired',
        expires_at: expiresAt,
      });
    });
  });

  it('records last_used_at at most once a minute per key', async () => {
    const { sa, key, keyId } = await serviceAccountKey(owner, owner.org);
    const lastUsed = async () =>
      (await db.query('SELECT last_used_at FROM api_key WHERE id = $1', [keyId])).rows[0]
        .last_used_at as Date | null;
    expect(await lastUsed()).toBeNull();
    await user(key);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    t.clock.advance(30_000);
    await user(key);
    expect(await lastUsed()).toEqual(first);
    t.clock.advance(31_000);
    await user(key);
    const later = await lastUsed();
    expect(later!.getTime()).toBeGreaterThan(first!.getTime() + 60_000);
    const listed = (await owner.get(`${saPath(sa)}/keys`)).body[0];
    expect(listed.last_used_at).toBe(later!.toISOString());
  });

  describe('personal keys', () => {
    it('act as the caller, with the caller’s role, in their workspace', async () => {
      const res = await owner.post(`/console/api/orgs/${owner.org}/keys`, {
        name: 'mine',
        permission: 'all',
      });
      expect(res.status).toBe(201);
      const who = await user(res.body.key);
      expect(who.body).toEqual({ id: owner.id, email: owner.email, name: expect.any(String) });
      const orgs = await t.http.get('/console/api/orgs').set('authorization', bearer(res.body.key));
      expect(orgs.body).toEqual([{ id: owner.org, name: 'Personal', role: 'owner' }]);
      const list = await owner.get(`/console/api/orgs/${owner.org}/keys`);
      expect(list.body.map((k: { id: string }) => k.id)).toContain(res.body.id);
      expect(JSON.stringify(list.body)).not.toContain(res.body.key);
      expect((await owner.del(`/console/api/orgs/${owner.org}/keys/${res.body.id}`)).status).toBe(204);
      expect((await user(res.body.key)).status).toBe(401);
    });
  });

  describe('user tokens', () => {
    it('are created once, listed without the token, and revoked with 401 at once', async () => {
      const created = await owner.post('/console/api/tokens', { name: 'laptop' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^tok_/),
        name: 'laptop',
        token: expect.stringMatching(README_PATTERN),
        prefix: expect.stringMatching(/^oc_ut_[0-9a-f]{12}$/),
        expires_at: null,
        created_at: expect.any(String),
      });
      const token: string = created.body.token;
      expect(token.startsWith('oc_ut_')).toBe(true);
      expect((await user(token)).body.id).toBe(owner.id);
      const list = await owner.get('/console/api/tokens');
      expect(list.body).toContainEqual(
        expect.objectContaining({ id: created.body.id, status: 'active', last4: token.slice(-4) }),
      );
      expect(JSON.stringify(list.body)).not.toContain(token.slice(19, 51));
      const { rows } = await db.query('SELECT * FROM user_token WHERE id = $1', [created.body.id]);
      expect(JSON.stringify(rows)).not.toContain(token.slice(19, 51));
      expect((await owner.del(`/console/api/tokens/${created.body.id}`)).status).toBe(204);
      expect((await user(token)).status).toBe(401);
      expect((await owner.del('/console/api/tokens/tok_unknown')).status).toBe(404);
    });

    it('expire at their expiry', async () => {
      const expiresAt = new Date(t.clock.now() + 60_000).toISOString();
      const { token } = (await owner.post('/console/api/tokens', { name: 'short', expires_at: expiresAt }))
        .body;
      expect((await user(token)).status).toBe(200);
      t.clock.advance(60_000);
      expect((await user(token)).status).toBe(401);
    });
  });

  it('a revocation is seen by a second server process on the same database on its very next request', async () => {
    const second = await createTestApp({
      databaseUrl: t.databaseUrl,
      env: { OUTPOST_SECRET_KEY: SECRET_KEY },
    });
    try {
      const { sa, key, keyId } = await serviceAccountKey(owner, owner.org);
      expect((await second.http.get('/console/api/user').set('authorization', bearer(key))).status).toBe(200);
      expect((await owner.del(`${saPath(sa)}/keys/${keyId}`)).status).toBe(204);
      const res = await second.http.get('/console/api/user').set('authorization', bearer(key));
      expect(res.status).toBe(401);
      expect(res.body._tag).toBe('Unauthorized');
    } finally {
      await second.close();
    }
  });
});
