import { Client } from 'pg';
import request from 'supertest';
import { whenSeen } from '../../helpers/fleet';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { addMember, bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { ConnectionsService } from '../../../src/modules/connections/connections.service';
import {
  ConnectionCredentialError,
  ConnectionNotFoundError,
} from '../../../src/modules/connections/connections.errors';

const SECRET = 'connections-test-secret-0123456789abcdef-0123456789';
const CREDENTIAL = 'sk-live-PLAINTEXT-credential-7f3a9Q';
const NEW_CREDENTIAL = 'sk-live-ROTATED-credential-b21cXyZ9';

interface ConnectionBody {
  id: string;
  name: string;
  base_url: string;
  schema: string;
  auth: { mode: string; header?: string; credential_last4: string | null };
  models: Record<string, { name: string; prices?: Record<string, number> }>;
  inference_url: string;
  created_at: string;
  updated_at: string;
}

const validBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Together',
  base_url: 'https://api.together.example/v1/',
  schema: 'openai-chat',
  auth: { mode: 'bearer', credential: CREDENTIAL },
  models: {
    'meta-llama/Llama-3-70b': { name: 'Llama 3 70B', prices: { input: 0.9, output: 2.5 } },
    'mistral-small': { name: 'Mistral Small' },
  },
  ...overrides,
});

/** The Providers family's console side: `/console/api/orgs/{org}/connections`, and `forInference()`. */
describe('BYOK connections', () => {
  let t: TestApp;
  let db: Client;
  let service: ConnectionsService;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let stranger: Person;
  let allKey: string;
  let inferenceKey: string;
  /** Every answer any test received, to check that no credential ever appears in one. */
  const answers: string[] = [];

  const base = (org = owner.org) => `/console/api/orgs/${org}/connections`;
  const keep = (res: request.Response) => {
    answers.push(JSON.stringify({ headers: res.headers, body: res.body, text: res.text }));
    return res;
  };
  const create = async (person: Person, body: object = validBody()) => keep(await person.post(base(), body));
  const rowCount = async () =>
    Number((await db.query('SELECT count(*) AS n FROM connection')).rows[0].n as string);
  const auditEntries = async () => {
    const res = keep(await owner.get(`/console/api/orgs/${owner.org}/audit?limit=200`));
    expect(res.status).toBe(200);
    return (
      res.body.entries as Array<{ action: string; target: { type: string; id: string }; details: object }>
    ).filter((e) => e.action.startsWith('connection.'));
  };

  beforeAll(async () => {
    t = await createTestApp({ env: { OUTPOST_SECRET_KEY: SECRET } });
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    service = t.app.get(ConnectionsService);
    owner = await signup(t, 'owner@example.com');
    admin = await signup(t, 'admin@example.com');
    member = await signup(t, 'member@example.com');
    stranger = await signup(t, 'stranger@example.com');
    await addMember(owner, owner.org, admin, 'admin');
    await addMember(owner, owner.org, member, 'member');
    allKey = (await serviceAccountKey(owner, owner.org, 'all')).key;
    inferenceKey = (await serviceAccountKey(owner, owner.org, 'inference')).key;
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  describe('CRUD by an owner', () => {
    let created: ConnectionBody;

    it('creates a connection: conn_ id, the credential shown only as its last four characters', async () => {
      const res = await create(owner);
      expect(res.status).toBe(201);
      created = res.body;
      expect(created).toEqual({
        id: expect.stringMatching(/^conn_[0-9A-Z]{26}$/),
        name: 'Together',
        base_url: 'https://api.together.example/v1',
        schema: 'openai-chat',
        auth: { mode: 'bearer', credential_last4: CREDENTIAL.slice(-4) },
        models: {
          'meta-llama/Llama-3-70b': { name: 'Llama 3 70B', prices: { input: 0.9, output: 2.5 } },
          'mistral-small': { name: 'Mistral Small' },
        },
        inference_url: `${t.url}/inference/custom/${created.id}`,
        created_at: expect.any(String),
        updated_at: created.created_at,
      });
    });

    it('lists and gets it the same way', async () => {
      const list = keep(await owner.get(base()));
      expect(list.status).toBe(200);
      expect(list.body).toEqual([created]);
      const one = keep(await owner.get(`${base()}/${created.id}`));
      expect(one.status).toBe(200);
      expect(one.body).toEqual(created);
    });

    it('an admin and an All key may read it too', async () => {
      expect(keep(await admin.get(`${base()}/${created.id}`)).body).toEqual(created);
      const res = keep(await t.http.get(base()).set('authorization', bearer(allKey)));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([created]);
    });

    it('keeps only ciphertext in the database: the plain credential is in no column', async () => {
      const { rows } = await db.query(
        `SELECT row_to_json(c)::text AS json, encode(credential_cipher, 'escape') AS raw,
                position(convert_to($2, 'UTF8') IN credential_cipher) AS at, length(credential_cipher) AS size
           FROM connection c WHERE id = $1`,
        [created.id, CREDENTIAL],
      );
      expect(rows).toHaveLength(1);
      const [row] = rows as Array<{ json: string; raw: string; at: number; size: number }>;
      expect(row.at).toBe(0);
      for (const text of [row.json, row.raw]) {
        expect(text).not.toContain(CREDENTIAL);
        expect(text).not.toContain(Buffer.from(CREDENTIAL).toString('base64'));
        expect(text).not.toContain(Buffer.from(CREDENTIAL).toString('hex'));
      }
      // version byte + 12-byte IV + 16-byte tag + ciphertext as long as the credential (GCM is a stream mode)
      expect(row.size).toBe(1 + 12 + 16 + CREDENTIAL.length);
      expect(row.json).toContain('"credential_last4":"' + CREDENTIAL.slice(-4) + '"');
    });

    it('two connections with the same credential get different ciphertexts (random IV)', async () => {
      const second = await create(owner, validBody({ name: 'Twin' }));
      expect(second.status).toBe(201);
      const { rows } = await db.query(
        'SELECT credential_cipher FROM connection WHERE id = ANY($1) ORDER BY id',
        [[created.id, second.body.id]],
      );
      expect(rows).toHaveLength(2);
      expect(Buffer.compare(rows[0].credential_cipher, rows[1].credential_cipher)).not.toBe(0);
      expect(keep(await owner.del(`${base()}/${second.body.id}`)).status).toBe(204);
    });

    it('gives the gateway the decrypted credential and prices in micro-cents per million tokens', async () => {
      const connection = await service.forInference(owner.org, created.id);
      expect(connection).toMatchObject({
        id: created.id,
        workspaceId: owner.org,
        baseUrl: 'https://api.together.example/v1',
        schema: 'openai-chat',
        authMode: 'bearer',
        authHeader: null,
        credential: CREDENTIAL,
      });
      expect(connection.models).toEqual(
        new Map<string, unknown>([
          [
            'meta-llama/Llama-3-70b',
            {
              name: 'Llama 3 70B',
              // $0.90 and $2.50 per million; cache prices default to the input price
              prices: {
                input: 90_000_000n,
                output: 250_000_000n,
                cacheRead: 90_000_000n,
                cacheWrite: 90_000_000n,
              },
            },
          ],
          ['mistral-small', { name: 'Mistral Small', prices: null }],
        ]),
      );
      // Another workspace cannot reach it, even knowing its id.
      await expect(service.forInference(stranger.org, created.id)).rejects.toBeInstanceOf(
        ConnectionNotFoundError,
      );
    });

    it('PATCH replaces the credential (write-only): last4 changes, the gateway sees the new one (every node within a second)', async () => {
      t.clock.advance(1_000);
      const res = keep(
        await owner.patch(`${base()}/${created.id}`, { auth: { credential: NEW_CREDENTIAL } }),
      );
      expect(res.status).toBe(200);
      expect(res.body.auth).toEqual({ mode: 'bearer', credential_last4: NEW_CREDENTIAL.slice(-4) });
      expect(res.body.auth.credential_last4).not.toBe(created.auth.credential_last4);
      expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
      expect(res.body).toMatchObject({ id: created.id, name: created.name, models: created.models });
      const seen = await whenSeen(
        () => service.forInference(owner.org, created.id),
        (read) => !(read instanceof Error) && read.credential === NEW_CREDENTIAL,
      );
      expect(seen.credential).toBe(NEW_CREDENTIAL);
      const { rows } = await db.query(
        `SELECT position(convert_to($2, 'UTF8') IN credential_cipher) AS a,
                position(convert_to($3, 'UTF8') IN credential_cipher) AS b, row_to_json(c)::text AS json
           FROM connection c WHERE id = $1`,
        [created.id, CREDENTIAL, NEW_CREDENTIAL],
      );
      expect(rows[0]).toMatchObject({ a: 0, b: 0 });
      expect(rows[0].json).not.toContain(NEW_CREDENTIAL);
    });

    it('PATCH changes other members and keeps the credential', async () => {
      const res = keep(
        await owner.patch(`${base()}/${created.id}`, {
          name: 'Together AI',
          schema: 'openai-responses',
          auth: { mode: 'header', header: 'x-api-key' },
          models: { 'gpt-x': { name: 'GPT X', prices: { input: 1, output: 2, cache_read: 0.1 } } },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'Together AI',
        schema: 'openai-responses',
        auth: { mode: 'header', header: 'x-api-key', credential_last4: NEW_CREDENTIAL.slice(-4) },
        models: { 'gpt-x': { name: 'GPT X', prices: { input: 1, output: 2, cache_read: 0.1 } } },
      });
      const connection = await whenSeen(
        () => service.forInference(owner.org, created.id),
        (read) => !(read instanceof Error) && read.authMode === 'header',
      );
      expect(connection).toMatchObject({
        authMode: 'header',
        authHeader: 'x-api-key',
        credential: NEW_CREDENTIAL,
        schema: 'openai-responses',
      });
      expect(connection.models.get('gpt-x')?.prices).toEqual({
        input: 100_000_000n,
        output: 200_000_000n,
        cacheRead: 10_000_000n,
        cacheWrite: 100_000_000n,
      });
      // Back to bearer: the header goes with the mode.
      const back = keep(await owner.patch(`${base()}/${created.id}`, { auth: { mode: 'bearer' } }));
      expect(back.body.auth).toEqual({ mode: 'bearer', credential_last4: NEW_CREDENTIAL.slice(-4) });
    });

    it('PATCH refuses a header with mode bearer, and mode header without one', async () => {
      const header = keep(await owner.patch(`${base()}/${created.id}`, { auth: { header: 'x-api-key' } }));
      expect(header.status).toBe(400);
      expect(header.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'auth.header' });
      const missing = keep(await owner.patch(`${base()}/${created.id}`, { auth: { mode: 'header' } }));
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ _tag: 'InvalidRequestError', field: 'auth.header' });
      const models = keep(await owner.patch(`${base()}/${created.id}`, { models: {} }));
      expect(models.status).toBe(400);
      expect(models.body).toMatchObject({ field: 'models' });
      expect(keep(await owner.get(`${base()}/${created.id}`)).body.auth.mode).toBe('bearer');
    });

    it('audits every change, never with the credential', async () => {
      const entries = await auditEntries();
      const mine = entries.filter((e) => e.target.id === created.id);
      expect(mine.map((e) => e.action).reverse()).toEqual([
        'connection.created',
        'connection.updated',
        'connection.updated',
        'connection.updated',
      ]);
      expect(mine.every((e) => e.target.type === 'connection')).toBe(true);
      expect(mine[mine.length - 1].details).toMatchObject({
        name: 'Together',
        base_url: 'https://api.together.example/v1',
        schema: 'openai-chat',
        auth_mode: 'bearer',
        models: ['meta-llama/Llama-3-70b', 'mistral-small'],
      });
      expect(mine[mine.length - 2].details).toEqual({ changed: ['auth.credential'] });
      const { rows } = await db.query(
        `SELECT row_to_json(a)::text AS json FROM audit_entry a WHERE action LIKE 'connection.%'`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const { json } of rows as Array<{ json: string }>) {
        expect(json).not.toContain(CREDENTIAL);
        expect(json).not.toContain(NEW_CREDENTIAL);
      }
    });

    it('DELETE removes it with its credential: then GET is 404, the gateway is refused, and it is audited', async () => {
      expect(keep(await owner.del(`${base()}/${created.id}`)).status).toBe(204);
      const res = keep(await owner.get(`${base()}/${created.id}`));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ _tag: 'NotFound', connection_id: created.id });
      expect(keep(await owner.del(`${base()}/${created.id}`)).status).toBe(404);
      expect(keep(await owner.patch(`${base()}/${created.id}`, { name: 'x' })).status).toBe(404);
      const gone = whenSeen(
        () => service.forInference(owner.org, created.id),
        (read) => read instanceof Error,
      );
      await expect(gone).rejects.toBeInstanceOf(ConnectionNotFoundError);
      expect((await db.query('SELECT 1 FROM connection WHERE id = $1', [created.id])).rowCount).toBe(0);
      const deleted = (await auditEntries()).find(
        (e) => e.action === 'connection.deleted' && e.target.id === created.id,
      );
      expect(deleted?.details).toEqual({ name: 'Together AI' });
    });
  });

  describe('who may do what', () => {
    let id: string;

    beforeAll(async () => {
      const res = await create(admin, validBody({ name: 'By the admin' }));
      expect(res.status).toBe(201);
      id = res.body.id;
    });

    it('an admin may create, change and delete (with the cookie)', async () => {
      const patched = keep(await admin.patch(`${base()}/${id}`, { name: 'Renamed' }));
      expect(patched.status).toBe(200);
      expect(patched.body.name).toBe('Renamed');
    });

    it('a member gets 403 on every route, and nothing changes', async () => {
      const before = await rowCount();
      for (const res of [
        await member.post(base(), validBody()),
        await member.get(base()),
        await member.get(`${base()}/${id}`),
        await member.patch(`${base()}/${id}`, { name: 'Mine now' }),
        await member.del(`${base()}/${id}`),
      ]) {
        keep(res);
        expect(res.status).toBe(403);
        expect(res.body._tag).toBe('Forbidden');
      }
      expect(await rowCount()).toBe(before);
      expect(keep(await owner.get(`${base()}/${id}`)).body.name).toBe('Renamed');
    });

    it('someone outside the workspace gets 403, and 404 for a connection of another workspace', async () => {
      expect(keep(await stranger.get(base())).status).toBe(403);
      expect((await stranger.get(`${base(stranger.org)}/${id}`)).status).toBe(404);
      expect((await stranger.del(`${base(stranger.org)}/${id}`)).status).toBe(404);
      expect((await stranger.patch(`${base(stranger.org)}/${id}`, { name: 'x' })).status).toBe(404);
      expect(keep(await stranger.get(base(stranger.org))).body).toEqual([]);
    });

    it('changes need a person signed in: an All key may read but not write; an Inference key may not read', async () => {
      const as = (key: string) => (test: request.Test) => test.set('authorization', bearer(key));
      const all = as(allKey);
      expect(keep(await all(t.http.post(base())).send(validBody())).status).toBe(403);
      expect(keep(await all(t.http.patch(`${base()}/${id}`)).send({ name: 'x' })).status).toBe(403);
      expect(keep(await all(t.http.delete(`${base()}/${id}`))).status).toBe(403);
      expect(keep(await all(t.http.get(`${base()}/${id}`))).status).toBe(200);
      const inference = as(inferenceKey);
      expect(keep(await inference(t.http.get(base()))).status).toBe(403);
      expect(keep(await inference(t.http.post(base())).send(validBody())).status).toBe(403);
      expect(keep(await t.http.get(base())).status).toBe(401);
    });

    afterAll(async () => {
      expect(keep(await admin.del(`${base()}/${id}`)).status).toBe(204);
    });
  });

  describe('bad bodies: 400 naming the field, nothing stored', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a missing name', { name: undefined }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['an ftp base_url', { base_url: 'ftp://files.example/v1' }, 'base_url'],
      ['a base_url that is not a URL', { base_url: 'api.example.com/v1' }, 'base_url'],
      ['a base_url with credentials', { base_url: 'https://user:pass@api.example.com/v1' }, 'base_url'],
      ['a base_url with a query', { base_url: 'https://api.example.com/v1?key=1' }, 'base_url'],
      ['an unknown schema', { schema: 'gemini' }, 'schema'],
      ['no auth', { auth: undefined }, 'auth'],
      ['auth as a string', { auth: CREDENTIAL }, 'auth'],
      ['an unknown auth mode', { auth: { mode: 'basic', credential: CREDENTIAL } }, 'auth.mode'],
      ['mode header without a header', { auth: { mode: 'header', credential: CREDENTIAL } }, 'auth.header'],
      [
        'a header name with a space',
        { auth: { mode: 'header', header: 'x api key', credential: CREDENTIAL } },
        'auth.header',
      ],
      [
        'a header the gateway sets itself',
        { auth: { mode: 'header', header: 'Content-Length', credential: CREDENTIAL } },
        'auth.header',
      ],
      [
        'a header with mode bearer',
        { auth: { mode: 'bearer', header: 'x-api-key', credential: CREDENTIAL } },
        'auth.header',
      ],
      ['no credential', { auth: { mode: 'bearer' } }, 'auth.credential'],
      ['an empty credential', { auth: { mode: 'bearer', credential: '' } }, 'auth.credential'],
      [
        'a credential over 4 KiB',
        { auth: { mode: 'bearer', credential: 'k'.repeat(4097) } },
        'auth.credential',
      ],
      [
        'a credential with a line break',
        { auth: { mode: 'bearer', credential: `${CREDENTIAL}\r\nx-evil: 1` } },
        'auth.credential',
      ],
      [
        'an unknown auth member',
        { auth: { mode: 'bearer', credential: CREDENTIAL, extra: 1 } },
        'auth.extra',
      ],
      ['no models', { models: undefined }, 'models'],
      ['an empty models map', { models: {} }, 'models'],
      ['models as an array', { models: [{ name: 'x' }] }, 'models'],
      ['a model without a name', { models: { m: {} } }, 'models.m.name'],
      ['a model name with a lone surrogate', { models: { m: { name: 'bad \ud800 name' } } }, 'models.m.name'],
      ['a model id with a space', { models: { 'my model': { name: 'x' } } }, 'models.my model'],
      [
        'a negative price',
        { models: { m: { name: 'M', prices: { input: -1, output: 1 } } } },
        'models.m.prices.input',
      ],
      [
        'a price without output',
        { models: { m: { name: 'M', prices: { input: 1 } } } },
        'models.m.prices.output',
      ],
      [
        'a price as a string',
        { models: { m: { name: 'M', prices: { input: '1', output: 1 } } } },
        'models.m.prices.input',
      ],
      [
        'an unknown price',
        { models: { m: { name: 'M', prices: { input: 1, output: 1, reasoning: 1 } } } },
        'models.m.prices.reasoning',
      ],
      ['an unknown model member', { models: { m: { name: 'M', limit: 1 } } }, 'models.m.limit'],
      ['an unknown top-level member', { credential: CREDENTIAL }, 'credential'],
    ];

    it.each(cases)('refuses %s', async (_name, overrides, field) => {
      const before = await rowCount();
      const res = keep(await owner.post(base(), validBody(overrides)));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field, kind: 'Body' });
      expect(res.body.message).toContain(field);
      expect(await rowCount()).toBe(before);
    });
  });

  describe('the encryption key comes from the server secret', () => {
    let id: string;

    beforeAll(async () => {
      const res = await create(owner, validBody({ name: 'Keyed' }));
      expect(res.status).toBe(201);
      id = res.body.id;
    });

    it('another server with the same OUTPOST_SECRET_KEY decrypts it; one with another secret cannot', async () => {
      const same = await createTestApp({ env: { OUTPOST_SECRET_KEY: SECRET }, databaseUrl: t.databaseUrl });
      try {
        expect((await same.app.get(ConnectionsService).forInference(owner.org, id)).credential).toBe(
          CREDENTIAL,
        );
      } finally {
        await same.close();
      }
      const other = await createTestApp({
        env: { OUTPOST_SECRET_KEY: 'another-secret-of-at-least-32-characters!!' },
        databaseUrl: t.databaseUrl,
      });
      try {
        await expect(other.app.get(ConnectionsService).forInference(owner.org, id)).rejects.toBeInstanceOf(
          ConnectionCredentialError,
        );
      } finally {
        await other.close();
      }
    });

    it('a ciphertext altered or copied onto another connection does not decrypt', async () => {
      const twin = await create(owner, validBody({ name: 'Twin' }));
      expect(twin.status).toBe(201);
      // Copied from `id` onto the twin: bound to its own connection, it does not decrypt there.
      await db.query(
        'UPDATE connection SET credential_cipher = (SELECT credential_cipher FROM connection WHERE id = $1) WHERE id = $2',
        [id, twin.body.id],
      );
      service.invalidate(owner.org, twin.body.id);
      await expect(service.forInference(owner.org, twin.body.id)).rejects.toBeInstanceOf(
        ConnectionCredentialError,
      );
      // One flipped bit of the ciphertext.
      await db.query(
        `UPDATE connection SET credential_cipher = set_byte(credential_cipher, 40, get_byte(credential_cipher, 40) # 1)
          WHERE id = $1`,
        [id],
      );
      service.invalidate(owner.org, id);
      await expect(service.forInference(owner.org, id)).rejects.toBeInstanceOf(ConnectionCredentialError);
      // The console still lists both (it never decrypts), and a new credential repairs it.
      expect(keep(await owner.get(`${base()}/${id}`)).status).toBe(200);
      const repaired = keep(await owner.patch(`${base()}/${id}`, { auth: { credential: NEW_CREDENTIAL } }));
      expect(repaired.status).toBe(200);
      expect((await service.forInference(owner.org, id)).credential).toBe(NEW_CREDENTIAL);
    });
  });

  it('no answer ever carried a credential', () => {
    expect(answers.length).toBeGreaterThan(40);
    for (const answer of answers) {
      expect(answer).not.toContain(CREDENTIAL);
      expect(answer).not.toContain(NEW_CREDENTIAL);
    }
  });
});
