import { Client } from 'pg';
import { bearer, Person, signup } from '../../helpers/console';
import {
  approve,
  deny,
  OPENCODE_USER_AGENT,
  pagesOf,
  pollToken,
  refreshToken,
  requestCode,
  signInDevice,
} from '../../helpers/device';
import { createTestApp, TestApp } from '../../helpers/test-app';

describe('device sign-in (RFC 8628) and rotating refresh tokens', () => {
  let t: TestApp;
  let db: Client;
  let ada: Person;
  let team: string;

  beforeAll(async () => {
    t = await createTestApp();
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    ada = await signup(t, 'ada@example.com');
    team = (await ada.post('/console/api/orgs', { name: 'Team' })).body.id;
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const oauthError = (error: string) => ({ error, error_description: expect.any(String) });
  const tokenResponse = (org: string | null) => ({
    access_token: expect.stringMatching(/^oc_at_/),
    token_type: 'Bearer',
    refresh_token: expect.stringMatching(/^oc_rt_/),
    expires_in: 3600,
    org_id: org,
  });

  describe('POST /console/auth/device/code', () => {
    it('answers opencode JSON with a user code XXXX-XXXX and root-relative verification URIs', async () => {
      const res = await t.http
        .post('/console/auth/device/code')
        .send({ client_id: 'opencode-cli', supports_org_scope: true });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
        verification_uri: '/console/device',
        verification_uri_complete: `/console/device?user_code=${res.body.user_code}`,
        expires_in: 600,
        interval: 5,
      });
      // Only the hash of the device code is stored.
      const { rows } = await db.query('SELECT device_code_hash FROM device_authorization');
      expect(JSON.stringify(rows)).not.toContain(res.body.device_code);
    });

    it('accepts a form-encoded RFC 8628 request', async () => {
      const res = await t.http
        .post('/console/auth/device/code')
        .type('form')
        .send({ client_id: 'outpost-cli' });
      expect(res.status).toBe(200);
      expect(res.body.interval).toBe(5);
    });

    it('400 invalid_client for an unknown client, invalid_request without client_id', async () => {
      const unknown = await t.http.post('/console/auth/device/code').send({ client_id: 'evil-cli' });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual(oauthError('invalid_client'));
      expect(unknown.body._tag).toBeUndefined();
      const missing = await t.http.post('/console/auth/device/code').type('form').send({});
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(oauthError('invalid_request'));
    });
  });

  describe('POST /console/auth/device/token with the device grant', () => {
    it('authorization_pending, then slow_down when polled too soon, with an interval that grows by 5 s', async () => {
      const code = await requestCode(t);
      const first = await pollToken(t, code.device_code);
      expect(first.status).toBe(400);
      expect(first.body).toEqual(oauthError('authorization_pending'));

      const tooSoon = await pollToken(t, code.device_code);
      expect(tooSoon.status).toBe(400);
      expect(tooSoon.body).toEqual({ ...oauthError('slow_down'), interval: 10 });

      t.clock.advance(10_000);
      expect((await pollToken(t, code.device_code)).body.error).toBe('authorization_pending');
      // From then on the interval is 10 s: 9 s is too soon again, and it grows to 15.
      t.clock.advance(9_000);
      expect((await pollToken(t, code.device_code)).body).toEqual({
        ...oauthError('slow_down'),
        interval: 15,
      });
      t.clock.advance(15_000);
      expect((await pollToken(t, code.device_code)).body.error).toBe('authorization_pending');
    });

    it('expired_token once 600 s have passed, even after approval', async () => {
      const code = await requestCode(t, { client_id: 'opencode-cli' });
      t.clock.advance(599_000);
      await approve(t, ada, code.user_code);
      t.clock.advance(1_000);
      const res = await pollToken(t, code.device_code);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(oauthError('expired_token'));
    });

    it('access_denied after the person denied', async () => {
      const code = await requestCode(t);
      const page = await deny(t, ada, code.user_code);
      expect(page.status).toBe(200);
      expect(page.text).toContain('You denied the sign-in of opencode-cli');
      const res = await pollToken(t, code.device_code);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(oauthError('access_denied'));
    });

    it('invalid_grant for an unknown code, invalid_client for another client_id, unsupported_grant_type', async () => {
      const unknown = await pollToken(t, 'no-such-device-code');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual(oauthError('invalid_grant'));

      const code = await requestCode(t);
      const other = await pollToken(t, code.device_code, 'outpost-cli');
      expect(other.status).toBe(400);
      expect(other.body).toEqual(oauthError('invalid_client'));
      const unconfigured = await pollToken(t, code.device_code, 'evil-cli');
      expect(unconfigured.body).toEqual(oauthError('invalid_client'));

      const grant = await t.http
        .post('/console/auth/device/token')
        .send({ grant_type: 'password', client_id: 'opencode-cli' });
      expect(grant.status).toBe(400);
      expect(grant.body).toEqual(oauthError('unsupported_grant_type'));
      const missing = await t.http
        .post('/console/auth/device/token')
        .type('form')
        .send({ grant_type: 'refresh_token' });
      expect(missing.body).toEqual(oauthError('invalid_request'));
    });

    it('approval with a workspace choice: tokens once, bound to the picked workspace', async () => {
      const code = await requestCode(t, { client_id: 'opencode-cli', supports_org_scope: true });
      // The approval page offers both workspaces.
      const page = await pagesOf(t, ada).get(code.verification_uri_complete);
      expect(page.text).toContain(`value="${ada.org}"`);
      expect(page.text).toContain(`value="${team}"`);
      await approve(t, ada, code.user_code, team);

      const res = await pollToken(t, code.device_code);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual(tokenResponse(team));
      const again = await pollToken(t, code.device_code);
      expect(again.status).toBe(400);
      expect(again.body).toEqual(oauthError('invalid_grant'));

      const auth = bearer(res.body.access_token);
      const user = await t.http.get('/console/api/user').set('authorization', auth);
      expect(user.status).toBe(200);
      expect(user.body).toMatchObject({ id: ada.id, email: 'ada@example.com' });
      const orgs = await t.http.get('/console/api/orgs').set('authorization', auth);
      expect(orgs.body).toEqual([{ id: team, name: 'Team', role: 'owner' }]);
      // opencode sends x-org-id even with bound tokens: the same one passes, another is 403.
      const same = await t.http.get('/console/api/orgs').set('authorization', auth).set('x-org-id', team);
      expect(same.status).toBe(200);
      const other = await t.http.get('/console/api/orgs').set('authorization', auth).set('x-org-id', ada.org);
      expect(other.status).toBe(403);
      expect(other.body._tag).toBe('Forbidden');
      const otherPath = await t.http.get(`/console/api/orgs/${ada.org}/members`).set('authorization', auth);
      expect(otherPath.status).toBe(403);
      const boundPath = await t.http.get(`/console/api/orgs/${team}/members`).set('authorization', auth);
      expect(boundPath.status).toBe(200);

      // Stored hashed only.
      const { rows } = await db.query('SELECT token_hash FROM device_token');
      expect(JSON.stringify(rows)).not.toContain(res.body.access_token.slice(6));
    });

    it("approval of a scoped client needs one of the person's workspaces", async () => {
      const bob = await signup(t, 'bob-scope@example.com');
      const code = await requestCode(t);
      const pages = pagesOf(t, ada);
      const page = await pages.get(code.verification_uri_complete);
      const res = await pages.submit(page, '/console/device', {
        user_code: code.user_code,
        action: 'approve',
        org: bob.org,
      });
      expect(res.status).toBe(403);
      expect(res.text).toContain('Pick one of your workspaces');
      expect((await pollToken(t, code.device_code)).body.error).toBe('authorization_pending');
    });

    it('approval without a workspace choice: org_id null, the token acts like a user token', async () => {
      const code = await requestCode(t, { client_id: 'outpost-cli' }, true);
      const page = await pagesOf(t, ada).get(code.verification_uri_complete);
      expect(page.text).not.toContain('name="org"');
      await approve(t, ada, code.user_code);
      const res = await t.http.post('/console/auth/device/token').type('form').send({
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        device_code: code.device_code,
        client_id: 'outpost-cli',
      });
      expect(res.status).toBe(200);
      expect(res.body.org_id).toBeNull();
      const auth = bearer(res.body.access_token);
      const orgs = await t.http.get('/console/api/orgs').set('authorization', auth);
      expect(orgs.body.map((org: { id: string }) => org.id).sort()).toEqual([ada.org, team].sort());
      for (const org of [ada.org, team]) {
        const members = await t.http.get(`/console/api/orgs/${org}/members`).set('authorization', auth);
        expect(members.status).toBe(200);
      }
    });

    it('the access token expires after an hour', async () => {
      const tokens = await signInDevice(t, ada);
      t.clock.advance(3599_000);
      expect(
        (await t.http.get('/console/api/user').set('authorization', bearer(tokens.access_token))).status,
      ).toBe(200);
      t.clock.advance(2_000);
      const res = await t.http.get('/console/api/user').set('authorization', bearer(tokens.access_token));
      expect(res.status).toBe(401);
      expect(res.body._tag).toBe('Unauthorized');
    });
  });

  describe('refresh', () => {
    it('rotates: new access and refresh tokens, the workspace binding kept', async () => {
      const first = await signInDevice(t, ada, team);
      const res = await refreshToken(t, first.refresh_token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(tokenResponse(team));
      expect(res.body.refresh_token).not.toBe(first.refresh_token);
      expect(res.body.access_token).not.toBe(first.access_token);
      const orgs = await t.http.get('/console/api/orgs').set('authorization', bearer(res.body.access_token));
      expect(orgs.body).toEqual([{ id: team, name: 'Team', role: 'owner' }]);
      const next = await refreshToken(t, res.body.refresh_token);
      expect(next.status).toBe(200);
      expect(next.body.org_id).toBe(team);
    });

    it('a refresh token from another client is invalid_client; an unknown one invalid_grant', async () => {
      const tokens = await signInDevice(t, ada);
      expect((await refreshToken(t, tokens.refresh_token, 'outpost-cli')).body).toEqual(
        oauthError('invalid_client'),
      );
      expect((await refreshToken(t, 'oc_rt_unknown')).body).toEqual(oauthError('invalid_grant'));
      // Neither attempt used it up.
      expect((await refreshToken(t, tokens.refresh_token)).status).toBe(200);
    });

    it('reuse of a used refresh token revokes the whole sign-in at once', async () => {
      const first = await signInDevice(t, ada, team);
      const second = (await refreshToken(t, first.refresh_token)).body;
      expect(
        (await t.http.get('/console/api/user').set('authorization', bearer(first.access_token))).status,
      ).toBe(200);

      const replay = await refreshToken(t, first.refresh_token);
      expect(replay.status).toBe(400);
      expect(replay.body).toEqual(oauthError('invalid_grant'));
      for (const access of [first.access_token, second.access_token]) {
        const res = await t.http.get('/console/api/user').set('authorization', bearer(access));
        expect(res.status).toBe(401);
        expect(res.body._tag).toBe('Unauthorized');
      }
      expect((await refreshToken(t, second.refresh_token)).body).toEqual(oauthError('invalid_grant'));
      const { rows } = await db.query(
        `SELECT action FROM audit_entry WHERE action = 'device.refresh_reused'`,
      );
      expect(rows.length).toBeGreaterThan(0);
    });

    it('two refreshes racing with one token: one wins, the other revokes the sign-in', async () => {
      const tokens = await signInDevice(t, ada, team);
      const results = await Promise.all([
        refreshToken(t, tokens.refresh_token),
        refreshToken(t, tokens.refresh_token),
      ]);
      const statuses = results.map((res) => res.status).sort();
      expect(statuses).toEqual([200, 400]);
      const winner = results.find((res) => res.status === 200)!.body;
      const loser = results.find((res) => res.status === 400)!.body;
      expect(loser).toEqual(oauthError('invalid_grant'));
      expect(
        (await t.http.get('/console/api/user').set('authorization', bearer(winner.access_token))).status,
      ).toBe(401);
      expect((await refreshToken(t, winner.refresh_token)).body).toEqual(oauthError('invalid_grant'));
    });

    it('the code is redeemed once even when two polls race', async () => {
      const code = await requestCode(t, { client_id: 'opencode-cli' });
      await approve(t, ada, code.user_code);
      const results = await Promise.all([pollToken(t, code.device_code), pollToken(t, code.device_code)]);
      const ok = results.filter((res) => res.status === 200);
      expect(ok).toHaveLength(1);
      const failed = results.find((res) => res.status !== 200)!;
      expect(failed.status).toBe(400);
      expect(['invalid_grant', 'slow_down']).toContain(failed.body.error);
    });
  });

  describe('GET and DELETE /console/api/sessions', () => {
    it("lists the person's device sign-ins and signs one out", async () => {
      const carol = await signup(t, 'carol@example.com');
      const tokens = await signInDevice(t, carol, carol.org);
      const list = await carol.get('/console/api/sessions');
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        {
          id: expect.stringMatching(/^dvs_/),
          client_id: 'opencode-cli',
          org_id: carol.org,
          user_agent: OPENCODE_USER_AGENT,
          created_at: expect.any(String),
          last_used_at: expect.any(String),
          current: false,
        },
      ]);
      const own = await t.http.get('/console/api/sessions').set('authorization', bearer(tokens.access_token));
      expect(own.body[0].current).toBe(true);
      // Another person cannot see or end it.
      expect((await ada.get('/console/api/sessions')).body.map((s: { id: string }) => s.id)).not.toContain(
        list.body[0].id,
      );
      expect((await ada.del(`/console/api/sessions/${list.body[0].id}`)).status).toBe(404);

      const del = await carol.del(`/console/api/sessions/${list.body[0].id}`);
      expect(del.status).toBe(204);
      expect(
        (await t.http.get('/console/api/user').set('authorization', bearer(tokens.access_token))).status,
      ).toBe(401);
      expect((await refreshToken(t, tokens.refresh_token)).body).toEqual(oauthError('invalid_grant'));
      expect((await carol.get('/console/api/sessions')).body).toEqual([]);
    });
  });

  describe('wrong codes on the device page', () => {
    it('5 wrong codes a minute per person, then 429 until the minute is over', async () => {
      const dave = await signup(t, 'dave@example.com');
      const code = await requestCode(t);
      const pages = pagesOf(t, dave);
      for (let i = 0; i < 5; i++) {
        const wrong = await pages.get('/console/device?user_code=BBBB-BBBB');
        expect(wrong.status).toBe(404);
        expect(wrong.text).toContain('No pending sign-in has this code');
        // The code can be corrected on the page.
        expect(wrong.text).toContain('name="user_code"');
      }
      const blocked = await pages.get(code.verification_uri_complete);
      expect(blocked.status).toBe(429);
      t.clock.advance(61_000);
      // Still valid (lowercase, no hyphen), with a fresh minute.
      const ok = await pages.get(
        `/console/device?user_code=${code.user_code.replace('-', '').toLowerCase()}`,
      );
      expect(ok.status).toBe(200);
      expect(ok.text).toContain(code.user_code);
    });
  });

  describe('two server processes on one database', () => {
    it('a code issued by one is approved through the other and polled at the first', async () => {
      const secret = { OUTPOST_SECRET_KEY: 'shared-secret-key-for-both-test-servers-0123' };
      const one = await createTestApp({ env: secret });
      const two = await createTestApp({ env: secret, databaseUrl: one.databaseUrl });
      try {
        const erin = await signup(two, 'erin@example.com');
        const code = await requestCode(one);
        expect((await pollToken(one, code.device_code)).body.error).toBe('authorization_pending');
        await approve(two, erin, code.user_code, erin.org);
        one.clock.advance(5_000);
        const res = await pollToken(one, code.device_code);
        expect(res.status).toBe(200);
        expect(res.body.org_id).toBe(erin.org);
        const user = await two.http
          .get('/console/api/user')
          .set('authorization', bearer(res.body.access_token));
        expect(user.body.id).toBe(erin.id);
        // Revoked through one, refused by the other at once.
        const [session] = (await erin.get('/console/api/sessions')).body;
        expect((await erin.del(`/console/api/sessions/${session.id}`)).status).toBe(204);
        expect(
          (await one.http.get('/console/api/user').set('authorization', bearer(res.body.access_token)))
            .status,
        ).toBe(401);
      } finally {
        await two.close();
        await one.close();
      }
    });
  });
});
