import { addMember, serviceAccountKey, signup } from '../../helpers/console';
import { createTestApp, TestApp } from '../../helpers/test-app';

describe('GET /console/api/orgs/{org}/audit?actor&action: the audit log filtered by the server', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('keeps only the actor’s entries, only the action’s, or both; pages within the filter', async () => {
    const owner = await signup(t);
    const admin = await signup(t);
    await addMember(owner, owner.org, admin, 'admin');
    await serviceAccountKey(owner, owner.org);
    await serviceAccountKey(admin, owner.org);
    const audit = (query: string) => owner.get(`/console/api/orgs/${owner.org}/audit?${query}`);

    const byAdmin = await audit(`actor=${admin.id}`);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.entries.length).toBeGreaterThan(0);
    expect(
      byAdmin.body.entries.every((entry: { actor: { id: string } }) => entry.actor.id === admin.id),
    ).toBe(true);

    const created = await audit('action=key.created');
    expect(created.body.entries.map((entry: { actor: { id: string } }) => entry.actor.id).sort()).toEqual(
      [owner.id, admin.id].sort(),
    );
    const both = await audit(`action=key.created&actor=${admin.id}`);
    expect(both.body.entries).toHaveLength(1);

    const first = await audit('action=key.created&limit=1');
    expect(first.body.entries).toHaveLength(1);
    const second = await audit(`action=key.created&limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.entries).toHaveLength(1);
    expect(second.body.entries[0].action).toBe('key.created');
    expect(second.body.entries[0].id).not.toBe(first.body.entries[0].id);
    expect(second.body.next_cursor).toBeNull();
  });

  it('400 naming the field for a malformed actor or action', async () => {
    const owner = await signup(t);
    const actor = await owner.get(`/console/api/orgs/${owner.org}/audit?actor=someone`);
    expect(actor.status).toBe(400);
    expect(JSON.stringify(actor.body)).toContain('actor');
    const action = await owner.get(`/console/api/orgs/${owner.org}/audit?action=${'x'.repeat(200)}`);
    expect(action.status).toBe(400);
    expect(JSON.stringify(action.body)).toContain('action');
  });
});
