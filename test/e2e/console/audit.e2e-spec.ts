import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { createTestDatabase } from '../../helpers/test-database';
import { freePort, startServer, waitForHealth } from '../../helpers/processes';
import {
  addMember,
  bearer,
  PASSWORD,
  Person,
  serviceAccountKey,
  sessionCookie,
  signup,
} from '../../helpers/console';

describe('audit log', () => {
  let t: TestApp;
  let owner: Person;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signup(t);
  });
  afterAll(() => t.close());

  const audit = (org: string, query = '') => `/console/api/orgs/${org}/audit${query}`;

  it('records each change with actor, action, target, time and source address, newest first', async () => {
    const member = await signup(t);
    await addMember(owner, owner.org, member, 'member');
    await owner.patch(`/console/api/orgs/${owner.org}/members/${member.id}`, { role: 'admin' });
    const { sa, keyId } = await serviceAccountKey(owner, owner.org);
    await owner.del(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${keyId}`);
    await owner.del(`/console/api/orgs/${owner.org}/members/${member.id}`);

    const res = await owner.get(audit(owner.org));
    expect(res.status).toBe(200);
    const actions = res.body.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual([
      'member.removed',
      'key.revoked',
      'key.created',
      'service_account.created',
      'member.role_changed',
      'member.joined',
      'member.invited',
      'workspace.created',
    ]);
    expect(res.body.entries[0]).toEqual({
      id: expect.stringMatching(/^aud_/),
      time: expect.any(String),
      actor: { type: 'user', id: owner.id },
      action: 'member.removed',
      target: { type: 'user', id: member.id },
      details: { role: 'admin', revoked_keys: 0 },
      source_address: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(res.body.entries[4].details).toEqual({ from: 'member', to: 'admin' });
    expect(res.body.entries[5].actor).toEqual({ type: 'user', id: member.id });
    expect(res.body.next_cursor).toBeNull();
  });

  it('pages with cursor and limit', async () => {
    const all = (await owner.get(audit(owner.org))).body.entries.map((e: { id: string }) => e.id);
    const first = await owner.get(audit(owner.org, '?limit=3'));
    expect(first.body.entries.map((e: { id: string }) => e.id)).toEqual(all.slice(0, 3));
    expect(first.body.next_cursor).toBe(all[2]);
    const second = await owner.get(audit(owner.org, `?limit=3&cursor=${first.body.next_cursor}`));
    expect(second.body.entries.map((e: { id: string }) => e.id)).toEqual(all.slice(3, 6));
    expect((await owner.get(audit(owner.org, '?limit=0'))).status).toBe(400);
    expect((await owner.get(audit(owner.org, '?cursor=nope'))).status).toBe(400);
  });

  it('records what a service account does, as the service account', async () => {
    const { sa, key } = await serviceAccountKey(owner, owner.org);
    await t.http
      .post(`/console/api/orgs/${owner.org}/service-accounts`)
      .set('authorization', bearer(key))
      .send({ name: 'child' });
    const [latest] = (await owner.get(audit(owner.org, '?limit=1'))).body.entries;
    expect(latest).toMatchObject({
      action: 'service_account.created',
      actor: { type: 'service_account', id: sa },
    });
  });

  it('is for owners and admins (cookie or All key); members and Inference-only keys get 403', async () => {
    const member = await signup(t);
    await addMember(owner, owner.org, member, 'member');
    expect((await member.get(audit(owner.org))).status).toBe(403);
    const inference = (await serviceAccountKey(owner, owner.org, 'inference')).key;
    expect((await t.http.get(audit(owner.org)).set('authorization', bearer(inference))).status).toBe(403);
    const all = (await serviceAccountKey(owner, owner.org, 'all')).key;
    expect((await t.http.get(audit(owner.org)).set('authorization', bearer(all))).status).toBe(200);
  });

  it('documents the console operations, signed-in-only ones with the cookie only', async () => {
    const doc = (await t.http.get('/docs/console.json')).body;
    const invite = doc.paths['/console/api/orgs/{org}/invites'].post;
    expect(invite.operationId).toBe('invite.create');
    expect(invite.security).toEqual([{ cookie: [] }]);
    expect(Object.keys(invite.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404']),
    );
    expect(doc.paths['/console/api/orgs/{org}/audit'].get.operationId).toBe('audit.list');
  });

  it('a refused change leaves no entry', async () => {
    const before = (await owner.get(audit(owner.org))).body.entries.length;
    expect(
      (await owner.patch(`/console/api/orgs/${owner.org}/members/${owner.id}`, { role: 'member' })).status,
    ).toBe(409);
    expect((await owner.get(audit(owner.org))).body.entries.length).toBe(before);
  });
});

describe('secrets never reach the log', () => {
  it('a server logging at trace level never prints a key, token, cookie or password', async () => {
    const database = await createTestDatabase();
    const port = await freePort();
    const server = startServer({
      DATABASE_URL: database.url,
      PORT: String(port),
      OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-log-')),
      OUTPOST_PASSWORD: 'test-password',
      LOG_LEVEL: 'trace',
    });
    try {
      await waitForHealth(server);
      const http = request(server.url);
      const signed = await http
        .post('/console/api/auth/signup')
        .send({ email: 'log@example.com', password: PASSWORD });
      const cookie = sessionCookie(signed);
      const as = (test: request.Test) => test.set('cookie', cookie).set('origin', server.url);
      const org = (await as(http.get('/console/api/orgs'))).body[0].id;
      const sa = (await as(http.post(`/console/api/orgs/${org}/service-accounts`)).send({ name: 'ci' })).body
        .id;
      const key = (
        await as(http.post(`/console/api/orgs/${org}/service-accounts/${sa}/keys`)).send({
          name: 'k',
          permission: 'all',
        })
      ).body.key as string;
      const token = (await as(http.post('/console/api/tokens')).send({ name: 't' })).body.token as string;
      const invite = (
        await as(http.post(`/console/api/orgs/${org}/invites`)).send({
          email: 'x@example.com',
          role: 'member',
        })
      ).body.url as string;
      expect((await http.get('/console/api/user').set('authorization', bearer(key))).status).toBe(200);
      expect((await http.get('/console/api/user').set('authorization', bearer(token))).status).toBe(200);
      await http
        .post(`/console/api/invites/${invite.split('/').pop()}/accept`)
        .set('cookie', cookie)
        .set('origin', server.url);
      await http.post('/console/api/auth/login').send({ email: 'log@example.com', password: PASSWORD });
      const output = server.output();
      expect(output).toContain('/console/api/user');
      for (const secret of [
        key.slice(19),
        token.slice(19),
        cookie.split('=')[1],
        PASSWORD,
        invite.split('/').pop()!,
      ]) {
        expect(output).not.toContain(secret);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await database.drop();
    }
    // A whole server process starts here; on a loaded machine with the embedded database that took over 60 s once.
  }, 120_000);
});
