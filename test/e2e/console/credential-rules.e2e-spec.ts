import { Client } from 'pg';
import request from 'supertest';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { addMember, bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { checksum } from '@/modules/console-access/token-format';
import { InferenceProbeModule } from './inference-probe.module';

/** The credential rules of the console API, one test each. */
describe('console credential rules', () => {
  let t: TestApp;
  let owner: Person;
  let stranger: Person;
  let allKey: string;
  let inferenceKey: string;
  let userToken: string;

  beforeAll(async () => {
    t = await createTestApp({ imports: [InferenceProbeModule] });
    owner = await signup(t);
    stranger = await signup(t);
    allKey = (await serviceAccountKey(owner, owner.org, 'all')).key;
    inferenceKey = (await serviceAccountKey(owner, owner.org, 'inference')).key;
    userToken = (await owner.post('/console/api/tokens', { name: 'script' })).body.token;
  });
  afterAll(() => t.close());

  const members = (org: string) => `/console/api/orgs/${org}/members`;
  const expectTag = (res: { status: number; body: unknown }, status: number, tag: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ _tag: tag, message: expect.any(String) });
  };

  describe('401 Unauthorized', () => {
    it('answers a request with no credential', async () => {
      expectTag(await t.http.get('/console/api/user'), 401, 'Unauthorized');
    });

    it('answers a malformed Authorization header', async () => {
      expectTag(await t.http.get('/console/api/user').set('authorization', 'Basic abc'), 401, 'Unauthorized');
      expectTag(await t.http.get('/console/api/user').set('authorization', 'Bearer'), 401, 'Unauthorized');
    });

    it('answers a bearer token with an unknown prefix', async () => {
      expectTag(
        await t.http.get('/console/api/user').set('authorization', bearer('sk-abc')),
        401,
        'Unauthorized',
      );
    });

    it('answers a key whose checksum does not match (no database needed)', async () => {
      const broken = allKey.slice(0, -1) + (allKey.endsWith('A') ? 'B' : 'A');
      expectTag(
        await t.http.get('/console/api/user').set('authorization', bearer(broken)),
        401,
        'Unauthorized',
      );
    });

    it('answers a well-formed key that does not exist', async () => {
      const body = `oc_sk_0123456789ab_${'x'.repeat(32)}`;
      const unknown = body + checksum(body);
      expectTag(
        await t.http.get('/console/api/user').set('authorization', bearer(unknown)),
        401,
        'Unauthorized',
      );
    });

    it('answers a real public id with the wrong secret', async () => {
      const body = allKey.slice(0, 'oc_sk_'.length + 13) + 'y'.repeat(32);
      const forged = body + checksum(body);
      expectTag(
        await t.http.get('/console/api/user').set('authorization', bearer(forged)),
        401,
        'Unauthorized',
      );
    });

    it('answers an unknown sign-in cookie', async () => {
      const res = await t.http.get('/console/api/user').set('cookie', 'outpost_console=' + 'a'.repeat(43));
      expectTag(res, 401, 'Unauthorized');
    });
  });

  describe('service-account key', () => {
    it('is bound to its workspace: no x-org-id needed', async () => {
      const res = await t.http.get(members(owner.org)).set('authorization', bearer(allKey));
      expect(res.status).toBe(200);
    });

    it('accepts an x-org-id naming its own workspace', async () => {
      const res = await t.http
        .get(members(owner.org))
        .set('authorization', bearer(allKey))
        .set('x-org-id', owner.org);
      expect(res.status).toBe(200);
    });

    it('gets 403 for an x-org-id naming another workspace', async () => {
      const res = await t.http
        .get(members(owner.org))
        .set('authorization', bearer(allKey))
        .set('x-org-id', stranger.org);
      expectTag(res, 403, 'Forbidden');
    });

    it('gets 403 on another workspace in the path', async () => {
      expectTag(
        await t.http.get(members(stranger.org)).set('authorization', bearer(allKey)),
        403,
        'Forbidden',
      );
    });
  });

  describe('user token', () => {
    it('needs x-org-id: 400 OrgRequired without it', async () => {
      expectTag(
        await t.http.get(members(owner.org)).set('authorization', bearer(userToken)),
        400,
        'OrgRequired',
      );
    });

    it('acts as the person in the workspace named by x-org-id', async () => {
      const res = await t.http
        .get(members(owner.org))
        .set('authorization', bearer(userToken))
        .set('x-org-id', owner.org);
      expect(res.status).toBe(200);
    });

    it('gets 403 for a workspace the person is not in', async () => {
      const res = await t.http
        .get(members(stranger.org))
        .set('authorization', bearer(userToken))
        .set('x-org-id', stranger.org);
      expectTag(res, 403, 'Forbidden');
    });

    it('gets 404 NotFound for a workspace that does not exist', async () => {
      const res = await t.http
        .get(members('org_01ZZZZZZZZZZZZZZZZZZZZZZZZ'))
        .set('authorization', bearer(userToken))
        .set('x-org-id', 'org_01ZZZZZZZZZZZZZZZZZZZZZZZZ');
      expectTag(res, 404, 'NotFound');
    });

    it('gets 404 NotFound for a deleted workspace, whose keys stop working (401)', async () => {
      const doomed = await owner.post('/console/api/orgs', { name: 'Doomed' });
      const key = (await serviceAccountKey(owner, doomed.body.id)).key;
      const db = new Client({ connectionString: t.databaseUrl });
      await db.connect();
      await db.query('UPDATE workspace SET deleted_at = now() WHERE id = $1', [doomed.body.id]);
      await db.end();
      const res = await t.http
        .get(members(doomed.body.id))
        .set('authorization', bearer(userToken))
        .set('x-org-id', doomed.body.id);
      expectTag(res, 404, 'NotFound');
      expectTag(await t.http.get('/console/api/user').set('authorization', bearer(key)), 401, 'Unauthorized');
    });

    it('answers GET /console/api/user and /console/api/orgs without x-org-id', async () => {
      const user = await t.http.get('/console/api/user').set('authorization', bearer(userToken));
      expect(user.body).toEqual({ id: owner.id, email: owner.email, name: expect.any(String) });
      const orgs = await t.http.get('/console/api/orgs').set('authorization', bearer(userToken));
      expect(orgs.body).toEqual([{ id: owner.org, name: 'Personal', role: 'owner' }]);
    });
  });

  describe('Inference-only key', () => {
    it('passes only where the route says @AllowInferenceKeys() (as GET /console/api/v2/config will)', async () => {
      // The probe is a module of the first node only (with OUTPOST_TEST_FLEET the others are processes of dist/).
      const probe = () => request(t.nodes[0].url).get('/console/api/probe-config');
      const res = await probe().set('authorization', bearer(inferenceKey));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ workspaceId: owner.org, permission: 'inference', role: 'member' });
      const token = await probe().set('authorization', bearer(userToken));
      expectTag(token, 400, 'OrgRequired');
    });

    it('gets 403 Forbidden on console endpoints', async () => {
      expectTag(
        await t.http.get('/console/api/user').set('authorization', bearer(inferenceKey)),
        403,
        'Forbidden',
      );
      expectTag(
        await t.http.get(members(owner.org)).set('authorization', bearer(inferenceKey)),
        403,
        'Forbidden',
      );
      expectTag(
        await t.http.get('/console/api/orgs').set('authorization', bearer(inferenceKey)),
        403,
        'Forbidden',
      );
    });
  });

  describe('All key: console API with admin access', () => {
    it('reads members and the audit log, and creates service accounts', async () => {
      expect(
        (await t.http.get(`/console/api/orgs/${owner.org}/audit`).set('authorization', bearer(allKey)))
          .status,
      ).toBe(200);
      const created = await t.http
        .post(`/console/api/orgs/${owner.org}/service-accounts`)
        .set('authorization', bearer(allKey))
        .send({ name: 'made-by-key' });
      expect(created.status).toBe(201);
    });
  });

  describe('signed-in-only actions refuse bearer credentials, even an All key', () => {
    let member: Person;
    let sa: string;
    let keyId: string;
    beforeAll(async () => {
      member = await signup(t);
      await addMember(owner, owner.org, member, 'member');
      ({ sa, keyId } = await serviceAccountKey(owner, owner.org));
    });

    const cases: Array<[string, () => { method: 'post' | 'patch' | 'delete'; path: string; body?: object }]> =
      [
        [
          'inviting',
          () => ({
            method: 'post',
            path: `/console/api/orgs/${owner.org}/invites`,
            body: { email: 'x@example.com', role: 'member' },
          }),
        ],
        [
          'changing a role',
          () => ({ method: 'patch', path: `${members(owner.org)}/${member.id}`, body: { role: 'admin' } }),
        ],
        ['removing a member', () => ({ method: 'delete', path: `${members(owner.org)}/${member.id}` })],
        [
          'creating a key',
          () => ({
            method: 'post',
            path: `/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`,
            body: { name: 'k', permission: 'all' },
          }),
        ],
        [
          'revoking a key',
          () => ({
            method: 'delete',
            path: `/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`,
          }),
        ],
        [
          'creating a personal key',
          () => ({
            method: 'post',
            path: `/console/api/orgs/${owner.org}/keys`,
            body: { name: 'k', permission: 'all' },
          }),
        ],
        [
          'creating a user token',
          () => ({ method: 'post', path: '/console/api/tokens', body: { name: 't' } }),
        ],
      ];

    it.each(cases)('%s with an All key → 403 Forbidden', async (_name, describeCall) => {
      const call = describeCall();
      const res = await t.http[call.method](call.path)
        .set('authorization', bearer(allKey))
        .send(call.body ?? {});
      expectTag(res, 403, 'Forbidden');
    });

    it('inviting with a user token → 403 Forbidden, and nothing changes', async () => {
      const res = await t.http
        .post(`/console/api/orgs/${owner.org}/invites`)
        .set('authorization', bearer(userToken))
        .set('x-org-id', owner.org)
        .send({ email: 'y@example.com', role: 'member' });
      expectTag(res, 403, 'Forbidden');
      const invites = await owner.get(`/console/api/orgs/${owner.org}/invites`);
      expect(invites.body.map((i: { email: string }) => i.email)).not.toContain('y@example.com');
    });
  });

  describe('cookie-authenticated changes', () => {
    it('refuse a POST from another origin', async () => {
      const res = await t.http
        .post('/console/api/orgs')
        .set('cookie', owner.cookie)
        .set('origin', 'https://evil.example')
        .send({ name: 'evil' });
      expectTag(res, 403, 'Forbidden');
      const orgs = await owner.get('/console/api/orgs');
      expect(orgs.body.map((o: { name: string }) => o.name)).not.toContain('evil');
    });

    it('refuse a cross-site request flagged by Sec-Fetch-Site', async () => {
      const res = await t.http
        .post('/console/api/orgs')
        .set('cookie', owner.cookie)
        .set('sec-fetch-site', 'cross-site')
        .send({ name: 'evil' });
      expectTag(res, 403, 'Forbidden');
    });

    it('refuse a form-encoded body', async () => {
      const res = await t.http
        .post('/console/api/orgs')
        .set('cookie', owner.cookie)
        .set('origin', t.url)
        .type('form')
        .send('name=evil');
      expect(res.status).toBe(400);
    });

    it('refuse an empty POST without a JSON content type', async () => {
      const res = await t.http.post('/console/api/orgs').set('cookie', owner.cookie).set('origin', t.url);
      expectTag(res, 403, 'Forbidden');
    });

    it('allow reads from anywhere the cookie goes (SameSite=Lax keeps it same-site)', async () => {
      const res = await t.http
        .get('/console/api/user')
        .set('cookie', owner.cookie)
        .set('origin', 'https://evil.example');
      expect(res.status).toBe(200);
    });
  });
});
