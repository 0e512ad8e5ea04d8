import { addMember, bearer, serviceAccountKey, signup } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';

describe('PATCH /console/api/orgs/{org}/service-accounts/{sa}: renaming a service account', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('renames it; its keys keep working; the audit log has the old and the new name', async () => {
    const owner = await signup(t);
    const { sa, key } = await serviceAccountKey(owner, owner.org, 'inference');
    const res = await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}`, {
      name: 'release-bot',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sa, name: 'release-bot' });
    const list = await owner.get(`/console/api/orgs/${owner.org}/service-accounts`);
    expect(list.body.map((account: { name: string }) => account.name)).toEqual(['release-bot']);
    const members = await owner.get(`/console/api/orgs/${owner.org}/members`);
    expect(members.body.find((member: { user_id: string }) => member.user_id === sa).name).toBe(
      'release-bot',
    );
    expect((await t.http.get('/console/api/v2/config').set('authorization', bearer(key))).status).toBe(200);
    const audit = await owner.get(`/console/api/orgs/${owner.org}/audit`);
    expect(audit.body.entries[0]).toMatchObject({
      action: 'service_account.renamed',
      target: { type: 'service_account', id: sa },
      details: { name: 'release-bot', previous_name: 'ci' },
    });
  });

  it('400 naming the field for an empty or missing name; 404 for an unknown or removed account', async () => {
    const owner = await signup(t);
    const { sa } = await serviceAccountKey(owner, owner.org);
    const empty = await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}`, { name: '' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('name');
    expect((await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}`, {})).status).toBe(400);
    const unknown = await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/sa_nope`, {
      name: 'x',
    });
    expect(unknown.status).toBe(404);
    await owner.del(`/console/api/orgs/${owner.org}/service-accounts/${sa}`).expect(204);
    const removed = await owner.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}`, { name: 'x' });
    expect(removed.status).toBe(404);
  });

  it('a member may not rename (403); an Inference-only key may not either', async () => {
    const owner = await signup(t);
    const member = await signup(t);
    await addMember(owner, owner.org, member, 'member');
    const { sa, key } = await serviceAccountKey(owner, owner.org, 'inference');
    const res = await member.patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}`, { name: 'mine' });
    expect(res.status).toBe(403);
    const byKey = await t.http
      .patch(`/console/api/orgs/${owner.org}/service-accounts/${sa}`)
      .set('authorization', bearer(key))
      .send({ name: 'mine' });
    expect(byKey.status).toBe(403);
  });
});
