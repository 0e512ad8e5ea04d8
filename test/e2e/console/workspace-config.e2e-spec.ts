import { Client } from 'pg';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { addMember, bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { signInDevice } from '../../helpers/device';

const CONFIG = '/console/api/v2/config';
/** Both server processes must share the pepper of the key hashes, as a real deployment does. */
const env = { OUTPOST_SECRET_KEY: 'workspace-config-test-secret-key-0123456789' };

const PROVIDER = {
  name: 'Outpost gateway',
  env: ['OUTPOST_API_KEY'],
  package: 'aisdk:@ai-sdk/openai-compatible',
  settings: { baseURL: 'https://outpost.example.com/inference/openai/v1' },
  models: { 'gpt-5': { name: 'GPT-5', limit: { context: 400000, input: 272000, output: 128000 } } },
};
const POLICIES = [
  { action: 'provider.use', resource: 'openai', effect: 'deny' },
  { action: 'provider.use', resource: 'outpost', effect: 'allow' },
];
/** The console's own MCP server, which every member's config lists (`/console/mcp`, docs/console.md). */
const consoleMcp = (t: TestApp, org: string) => ({
  type: 'remote',
  url: `${t.url}/console/mcp`,
  headers: { Authorization: 'Bearer {env:OPENCODE_CONSOLE_TOKEN}', 'x-org-id': org },
  oauth: false,
});
const DOCUMENT = {
  providers: { outpost: PROVIDER },
  websearch: { providerID: 'exa' },
  mcp: { servers: { docs: { url: 'https://mcp.example.com/mcp', auth: 'console' } } },
  policies: POLICIES,
};

/** `GET /console/api/v2/config` for every credential, and `PUT /console/api/orgs/{org}/config`. */
describe('workspace config (V2)', () => {
  let t: TestApp;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let stranger: Person;
  let allKey: string;
  let inferenceKey: string;
  let ownerToken: string;
  let memberToken: string;

  const configPath = (org: string) => `/console/api/orgs/${org}/config`;
  const withKey = (key: string) => t.http.get(CONFIG).set('authorization', bearer(key));
  const put = (key: string, body: object) =>
    t.http.put(configPath(owner.org)).set('authorization', bearer(key)).send(body);
  const expectTag = (res: { status: number; body: { _tag?: string } }, status: number, tag: string) => {
    expect(res.status).toBe(status);
    expect(res.body._tag).toBe(tag);
  };

  beforeAll(async () => {
    t = await createTestApp({ env });
    owner = await signup(t);
    admin = await signup(t);
    member = await signup(t);
    stranger = await signup(t);
    await addMember(owner, owner.org, admin, 'admin');
    await addMember(owner, owner.org, member, 'member');
    allKey = (await serviceAccountKey(owner, owner.org, 'all')).key;
    inferenceKey = (await serviceAccountKey(owner, owner.org, 'inference')).key;
    ownerToken = (await owner.post('/console/api/tokens', { name: 'script' })).body.token;
    memberToken = (await member.post('/console/api/tokens', { name: 'script' })).body.token;
  });
  afterAll(() => t.close());

  it('serves an empty config before anything is set, with an ETag', async () => {
    const other = await signup(t);
    const res = await other.get(CONFIG).set('x-org-id', other.org);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      providers: {},
      mcp: { servers: { outpost: consoleMcp(t, other.org) } },
      policies: [],
      experimental: { policies: [] },
    });
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
  });

  describe('PUT by an owner, then GET', () => {
    let body: Record<string, unknown>;

    beforeAll(async () => {
      const res = await owner.put(configPath(owner.org), DOCUMENT);
      expect(res.status).toBe(200);
      body = res.body;
    });

    it('answers the rendered config: workspace header, {env:} apiKey, websearch, mcp, both policy names', () => {
      expect(body).toEqual({
        providers: {
          outpost: {
            ...PROVIDER,
            settings: { ...PROVIDER.settings, apiKey: '{env:OUTPOST_API_KEY}' },
            headers: { 'x-org-id': owner.org },
          },
        },
        websearch: { providerID: 'exa' },
        mcp: {
          servers: {
            docs: { type: 'remote', url: 'https://mcp.example.com/mcp', auth: 'console' },
            outpost: consoleMcp(t, owner.org),
          },
        },
        policies: POLICIES,
        experimental: { policies: POLICIES },
      });
    });

    const cli = (key: string) => t.http.get('/console/api/config').set('authorization', bearer(key));

    it("answers opencode's released CLI at GET /console/api/config: { config: { provider } }, with its own ETag", async () => {
      const res = await cli(inferenceKey).set('x-org-id', owner.org);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        config: {
          provider: {
            outpost: {
              name: PROVIDER.name,
              env: PROVIDER.env,
              npm: '@ai-sdk/openai-compatible',
              options: {
                ...PROVIDER.settings,
                apiKey: '{env:OUTPOST_API_KEY}',
                headers: { 'x-org-id': owner.org },
              },
              models: PROVIDER.models,
            },
          },
          mcp: {
            docs: { type: 'remote', url: 'https://mcp.example.com/mcp' },
            outpost: consoleMcp(t, owner.org),
          },
          experimental: { policies: POLICIES },
        },
      });
      const v2 = await withKey(inferenceKey);
      expect(res.headers.etag).not.toBe(v2.headers.etag);
      const again = await cli(inferenceKey).set('if-none-match', res.headers.etag);
      expect(again.status).toBe(304);
      expect((await t.http.get('/console/api/config')).status).toBe(401);
    });

    it.each([
      ['an All key', () => withKey(allKey)],
      ['an Inference-only key', () => withKey(inferenceKey)],
      ['an All key with its own x-org-id', () => withKey(allKey).set('x-org-id', owner.org)],
      ['an owner’s user token with x-org-id', () => withKey(ownerToken).set('x-org-id', owner.org)],
      ['a member’s user token with x-org-id', () => withKey(memberToken).set('x-org-id', owner.org)],
      ['an admin’s sign-in cookie with x-org-id', () => admin.get(CONFIG).set('x-org-id', owner.org)],
      ['a member’s sign-in cookie with x-org-id', () => member.get(CONFIG).set('x-org-id', owner.org)],
    ])('is the same document for %s', async (_name, send) => {
      const res = await send();
      expect(res.status).toBe(200);
      expect(res.body).toEqual(body);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    });

    it('writes the change to the audit log', async () => {
      const [latest] = (await owner.get(`/console/api/orgs/${owner.org}/audit?limit=1`)).body.entries;
      expect(latest).toMatchObject({
        action: 'config.updated',
        actor: { type: 'user', id: owner.id },
        details: { changed: ['providers', 'websearch', 'mcp', 'policies'] },
      });
    });
  });

  describe('error rules', () => {
    it('401 Unauthorized without a credential, or with a revoked key', async () => {
      expectTag(await t.http.get(CONFIG), 401, 'Unauthorized');
      const { sa, key, keyId } = await serviceAccountKey(owner, owner.org, 'inference');
      expect((await withKey(key)).status).toBe(200);
      await owner.del(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`);
      expectTag(await withKey(key), 401, 'Unauthorized');
    });

    it('400 OrgRequired for a user token (or a cookie) without x-org-id', async () => {
      expectTag(await withKey(ownerToken), 400, 'OrgRequired');
      expectTag(await owner.get(CONFIG), 400, 'OrgRequired');
    });

    it('403 Forbidden for a key with another workspace in x-org-id, or a workspace the person is not in', async () => {
      expectTag(await withKey(inferenceKey).set('x-org-id', stranger.org), 403, 'Forbidden');
      expectTag(await withKey(ownerToken).set('x-org-id', stranger.org), 403, 'Forbidden');
    });

    it('404 NotFound for a workspace that does not exist or was deleted', async () => {
      expectTag(await withKey(ownerToken).set('x-org-id', 'org_01ZZZZZZZZZZZZZZZZZZZZZZZZ'), 404, 'NotFound');
      const doomed = await owner.post('/console/api/orgs', { name: 'Doomed' });
      const db = new Client({ connectionString: t.databaseUrl });
      await db.connect();
      await db.query('UPDATE workspace SET deleted_at = now() WHERE id = $1', [doomed.body.id]);
      await db.end();
      expectTag(await withKey(ownerToken).set('x-org-id', doomed.body.id), 404, 'NotFound');
    });
  });

  describe('ETag and If-None-Match', () => {
    it('answers 304 with no body for the current ETag (also as a weak tag or in a list)', async () => {
      const first = await withKey(allKey);
      const etag = first.headers.etag as string;
      const again = await withKey(allKey).set('if-none-match', etag);
      expect(again.status).toBe(304);
      expect(again.text).toBeFalsy();
      expect(again.headers.etag).toBe(etag);
      expect((await withKey(inferenceKey).set('if-none-match', `"other", W/${etag}`)).status).toBe(304);
      expect((await withKey(allKey).set('if-none-match', '"stale"')).status).toBe(200);
    });

    it('gives a new ETag at once after a change made through another server process', async () => {
      const etag = (await withKey(allKey)).headers.etag as string;
      const second = await createTestApp({ env, databaseUrl: t.databaseUrl });
      try {
        const res = await second.http
          .put(configPath(owner.org))
          .set('authorization', bearer(allKey))
          .send({ policies: [...POLICIES, { action: 'permission', resource: 'bash', effect: 'deny' }] });
        expect(res.status).toBe(200);
        expect(res.headers.etag).not.toBe(etag);
        const fresh = await withKey(inferenceKey).set('if-none-match', etag);
        expect(fresh.status).toBe(200);
        // The document names the console's address as each process was reached (its MCP server's URL): the same
        // document through the same address has the same ETag.
        const throughSecond = await second.http.get(CONFIG).set('authorization', bearer(inferenceKey));
        expect(throughSecond.headers.etag).toBe(res.headers.etag);
        expect(fresh.body.mcp.servers.outpost.url).toBe(`${t.url}/console/mcp`);
        expect(fresh.body.experimental.policies).toHaveLength(3);
      } finally {
        await second.close();
        await put(allKey, { policies: POLICIES });
      }
    });

    it('keeps the ETag when a PUT changes nothing', async () => {
      const etag = (await withKey(allKey)).headers.etag as string;
      const res = await put(allKey, { policies: POLICIES });
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBe(etag);
    });
  });

  describe('policies under either name', () => {
    const DENY_BASH = [{ action: 'permission', resource: 'bash', effect: 'deny' }];

    afterEach(async () => {
      expect((await put(allKey, { policies: POLICIES })).status).toBe(200);
    });

    it('accepts the deprecated experimental.policies and stores them once, as policies', async () => {
      expect((await put(allKey, { experimental: { policies: DENY_BASH } })).status).toBe(200);
      const res = await withKey(inferenceKey);
      expect(res.body.policies).toEqual(DENY_BASH);
      expect(res.body.experimental).toEqual({ policies: DENY_BASH });
      const db = new Client({ connectionString: t.databaseUrl });
      await db.connect();
      const { rows } = await db.query('SELECT document FROM workspace_config WHERE workspace_id = $1', [
        owner.org,
      ]);
      await db.end();
      expect(rows[0].document.policies).toEqual(DENY_BASH);
      expect(rows[0].document.experimental).toBeUndefined();
    });

    it('accepts both names when they agree, and 400 when they differ', async () => {
      expect((await put(allKey, { policies: DENY_BASH, experimental: { policies: DENY_BASH } })).status).toBe(
        200,
      );
      const res = await put(allKey, { policies: POLICIES, experimental: { policies: DENY_BASH } });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('experimental.policies');
    });
  });

  describe('who may change it', () => {
    it('lets an admin (cookie) change providers', async () => {
      const res = await admin.put(configPath(owner.org), {
        providers: { outpost: { ...PROVIDER, name: 'Gateway' } },
      });
      expect(res.status).toBe(200);
      expect(res.body.providers.outpost.name).toBe('Gateway');
      expect((await owner.put(configPath(owner.org), { providers: { outpost: PROVIDER } })).status).toBe(200);
    });

    it('lets an All key change websearch and mcp (null disables them), not providers or models', async () => {
      const off = await put(allKey, { websearch: null, mcp: null });
      expect(off.status).toBe(200);
      expect(off.body.websearch).toBeUndefined();
      // The admins' servers are off; the console's own stays, for every member.
      expect(Object.keys(off.body.mcp.servers)).toEqual(['outpost']);
      expect(off.body.providers.outpost.name).toBe(PROVIDER.name);
      expect((await put(allKey, { websearch: DOCUMENT.websearch, mcp: DOCUMENT.mcp })).status).toBe(200);
      const models = { ...PROVIDER.models, 'gpt-6': { name: 'GPT-6' } };
      expectTag(await put(allKey, { providers: { outpost: { ...PROVIDER, models } } }), 403, 'Forbidden');
      expect((await withKey(allKey)).body.providers.outpost.models['gpt-6']).toBeUndefined();
    });

    it('lets an All key send back the document it read (providers unchanged) with new policies', async () => {
      const current = (await withKey(allKey)).body;
      const res = await put(allKey, { ...current, policies: [], experimental: { policies: [] } });
      expect(res.status).toBe(200);
      expect(res.body.policies).toEqual([]);
      expect(res.body.providers).toEqual(current.providers);
    });

    it('refuses members, Inference-only keys and user tokens of members (403)', async () => {
      expectTag(await member.put(configPath(owner.org), { policies: [] }), 403, 'Forbidden');
      expectTag(await put(inferenceKey, { policies: [] }), 403, 'Forbidden');
      const res = await t.http
        .put(configPath(owner.org))
        .set('authorization', bearer(memberToken))
        .set('x-org-id', owner.org)
        .send({ policies: [] });
      expectTag(res, 403, 'Forbidden');
    });
  });

  describe('validation: 400 naming the field, nothing changes', () => {
    const provider = (patch: object) => ({ providers: { outpost: { ...PROVIDER, ...patch } } });
    const cases: Array<[string, object, string]> = [
      ['a package without a loader', provider({ package: '@ai-sdk/openai' }), 'providers.outpost.package'],
      ['a package that is no npm name', provider({ package: 'aisdk:Bad Name' }), 'providers.outpost.package'],
      ['an invalid env variable name', provider({ env: ['MY-KEY'] }), 'providers.outpost.env.0'],
      [
        'a raw key as apiKey',
        provider({ settings: { baseURL: 'https://x.example.com', apiKey: 'sk-live-123' } }),
        'providers.outpost.settings.apiKey',
      ],
      [
        'a raw bearer value in an authorization header',
        provider({ headers: { Authorization: 'Bearer abc123' } }),
        'providers.outpost.headers.Authorization',
      ],
      [
        'a secret-looking value in a free setting',
        provider({ settings: { baseURL: 'https://x.example.com', organization: 'sk-proj-abc' } }),
        'providers.outpost.settings.organization',
      ],
      [
        'a baseURL that is not http(s)',
        provider({ settings: { baseURL: 'file:///etc' } }),
        'providers.outpost.settings.baseURL',
      ],
      ['a model without a name', provider({ models: { m: {} } }), 'providers.outpost.models.m.name'],
      ['an invalid provider id', { providers: { 'Bad Id': PROVIDER } }, 'providers.Bad Id'],
      [
        'a policy with another effect',
        { policies: [{ action: 'provider.use', resource: 'x', effect: 'maybe' }] },
        'policies.0.effect',
      ],
      [
        'a policy with an unknown action',
        { policies: [{ action: 'delete.all', resource: 'x', effect: 'deny' }] },
        'policies.0.action',
      ],
      [
        'a policy without a resource',
        { policies: [{ action: 'permission', effect: 'deny' }] },
        'policies.0.resource',
      ],
      [
        'a policy with an extra member',
        { policies: [{ action: 'permission', resource: 'x', effect: 'deny', why: 1 }] },
        'policies.0.why',
      ],
      [
        'a local MCP server (a command)',
        { mcp: { servers: { evil: { type: 'local', command: ['rm', '-rf', '/'] } } } },
        'mcp.servers.evil',
      ],
      ['an MCP url that is not http(s)', { mcp: { servers: { x: { url: 'ws://x' } } } }, 'mcp.servers.x.url'],
      [
        'a raw token in an MCP header',
        { mcp: { servers: { x: { url: 'https://x.example.com', headers: { 'x-api-key': 'abc' } } } } },
        'mcp.servers.x.headers.x-api-key',
      ],
      ['websearch without providerID', { websearch: {} }, 'websearch.providerID'],
      ['an unknown top-level member', { model: 'x' }, 'model'],
    ];

    it.each(cases)('refuses %s', async (_name, body, field) => {
      const before = await withKey(allKey);
      const res = await owner.put(configPath(owner.org), body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ _tag: 'InvalidRequestError', field });
      const after = await withKey(allKey);
      expect(after.headers.etag).toBe(before.headers.etag);
    });

    it('accepts an {env:} reference for credential-named settings and headers', async () => {
      const res = await owner.put(
        configPath(owner.org),
        provider({
          settings: { baseURL: 'https://x.example.com', apiKey: '{env:OUTPOST_API_KEY}' },
          headers: { 'x-api-key': '{env:GATEWAY_KEY}' },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body.providers.outpost.headers).toEqual({
        'x-api-key': '{env:GATEWAY_KEY}',
        'x-org-id': owner.org,
      });
      expect((await owner.put(configPath(owner.org), { providers: { outpost: PROVIDER } })).status).toBe(200);
    });
  });

  describe('device-flow tokens', () => {
    it('a token bound at approval reads its workspace without x-org-id; another x-org-id is 403', async () => {
      const expected = await withKey(allKey);
      const tokens = await signInDevice(t, member, owner.org);
      expect(tokens.org_id).toBe(owner.org);
      const res = await withKey(tokens.access_token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected.body);
      expect(res.headers.etag).toBe(expected.headers.etag);
      expectTag(await withKey(tokens.access_token).set('x-org-id', stranger.org), 403, 'Forbidden');
    });

    it('an unbound token acts as its person: 400 OrgRequired without x-org-id, 200 with it', async () => {
      const tokens = await signInDevice(t, member);
      expect(tokens.org_id).toBeNull();
      expectTag(await withKey(tokens.access_token), 400, 'OrgRequired');
      const res = await withKey(tokens.access_token).set('x-org-id', owner.org);
      expect(res.status).toBe(200);
      expect(res.body).toEqual((await withKey(allKey)).body);
    });
  });
});
