import { errors } from 'openid-client';
import { bearer, Person, signup } from '../../helpers/console';
import { approve, pagesOf } from '../../helpers/device';
import { oauthClient, polledOnce } from '../../helpers/openid-device';
import { createTestApp, TestApp } from '../../helpers/test-app';

describe('device sign-in driven by openid-client (a third-party OAuth client)', () => {
  let t: TestApp;
  let ada: Person;

  beforeAll(async () => {
    t = await createTestApp();
    ada = await signup(t, 'ada@example.com');
  });
  afterAll(() => t.close());

  it('code → polls while pending → tokens after approval → refresh rotates → reuse is invalid_grant', async () => {
    const client = oauthClient(t);
    const handle = await client.deviceAuthorization({ supports_org_scope: 'true' });
    expect(handle.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(handle.verification_uri).toBe('/console/device');
    expect(handle.verification_uri_complete).toBe(`/console/device?user_code=${handle.user_code}`);
    expect(handle.expires_in).toBeGreaterThan(590);

    // openid-client waits the interval (5 s), polls, gets authorization_pending, and keeps polling.
    const polling = handle.poll();
    await polledOnce(t, handle.user_code);
    await approve(t, ada, handle.user_code, ada.org);
    const tokens = await polling;
    expect(tokens.access_token).toMatch(/^oc_at_/);
    expect(tokens.refresh_token).toMatch(/^oc_rt_/);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.org_id).toBe(ada.org);
    expect(tokens.expired()).toBe(false);

    const user = await t.http.get('/console/api/user').set('authorization', bearer(tokens.access_token!));
    expect(user.body).toMatchObject({ id: ada.id, email: 'ada@example.com' });

    const refreshed = await client.refresh(tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(refreshed.org_id).toBe(ada.org);
    const orgs = await t.http.get('/console/api/orgs').set('authorization', bearer(refreshed.access_token!));
    expect(orgs.body.map((org: { id: string }) => org.id)).toEqual([ada.org]);

    const replay = await client.refresh(tokens.refresh_token!).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(errors.OPError);
    expect((replay as errors.OPError).error).toBe('invalid_grant');
    const after = await t.http.get('/console/api/user').set('authorization', bearer(refreshed.access_token!));
    expect(after.status).toBe(401);
  });

  it('access_denied reaches the client as an OAuth error', async () => {
    const client = oauthClient(t, 'outpost-cli');
    const handle = await client.deviceAuthorization();
    const polling = handle.poll().catch((error: unknown) => error);
    const pages = pagesOf(t, ada);
    const page = await pages.get(handle.verification_uri_complete!);
    await pages.submit(page, '/console/device', { user_code: handle.user_code, action: 'deny' });
    const error = await polling;
    expect(error).toBeInstanceOf(errors.OPError);
    expect((error as errors.OPError).error).toBe('access_denied');
  });
});
