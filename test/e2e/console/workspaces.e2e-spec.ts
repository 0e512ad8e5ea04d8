import { createTestApp, TestApp } from '../../helpers/test-app';
import { addMember, bearer, Person, serviceAccountKey, signup } from '../../helpers/console';

describe('workspaces, members, roles and invitations', () => {
  let t: TestApp;

  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  const members = (org: string) => `/console/api/orgs/${org}/members`;
  const roleOf = async (viewer: Person, org: string, userId: string) =>
    (await viewer.get(members(org))).body.find((m: { user_id: string }) => m.user_id === userId)?.role;

  it('creates a workspace whose creator is the owner, listed by name', async () => {
    const person = await signup(t);
    const res = await person.post('/console/api/orgs', { name: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^org_[0-9A-Z]{26}$/), name: 'Acme' });
    const orgs = await person.get('/console/api/orgs');
    expect(orgs.body).toEqual([
      { id: res.body.id, name: 'Acme', role: 'owner' },
      { id: person.org, name: 'Personal', role: 'owner' },
    ]);
  });

  it('lists people and service accounts as members', async () => {
    const owner = await signup(t);
    const { sa } = await serviceAccountKey(owner, owner.org);
    const res = await owner.get(members(owner.org));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { user_id: owner.id, email: owner.email, name: expect.any(String), role: 'owner', kind: 'person' },
      { user_id: sa, email: null, name: 'ci', role: 'member', kind: 'service_account' },
    ]);
  });

  describe('invitations', () => {
    it('an invitation is accepted by the person signed in with that email, with the invited role', async () => {
      const owner = await signup(t);
      const invitee = await signup(t);
      const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
        email: invitee.email.toUpperCase(),
        role: 'admin',
      });
      expect(invite.status).toBe(201);
      expect(invite.body).toEqual({
        id: expect.stringMatching(/^inv_/),
        url: expect.stringMatching(new RegExp(`^${t.url}/console/invites/[A-Za-z0-9_-]{43}$`)),
        expires_at: expect.any(String),
        replaced_earlier: false,
        emailed: false,
      });
      const token = invite.body.url.split('/').pop();
      const accepted = await invitee.post(`/console/api/invites/${token}/accept`);
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({ id: owner.org, name: 'Personal', role: 'admin' });
      expect(await roleOf(owner, owner.org, invitee.id)).toBe('admin');
      const again = await invitee.post(`/console/api/invites/${token}/accept`);
      expect(again.status).toBe(404);
    });

    it('someone signed in with another email cannot accept it (403), and it stays usable', async () => {
      const owner = await signup(t);
      const invitee = await signup(t);
      const other = await signup(t);
      const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
        email: invitee.email,
        role: 'member',
      });
      const token = invite.body.url.split('/').pop();
      const res = await other.post(`/console/api/invites/${token}/accept`);
      expect(res.status).toBe(403);
      expect(res.body._tag).toBe('Forbidden');
      expect((await invitee.post(`/console/api/invites/${token}/accept`)).status).toBe(200);
    });

    it('inviting someone who is already a member is 409, and inviting yourself changes nothing', async () => {
      const owner = await signup(t);
      const member = await signup(t);
      await addMember(owner, owner.org, member, 'member');
      const res = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
        email: member.email,
        role: 'owner',
      });
      expect(res.status).toBe(409);
      expect(res.body._tag).toBe('Conflict');
      const self = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
        email: owner.email,
        role: 'member',
      });
      expect(self.status).toBe(409);
      expect(await roleOf(owner, owner.org, owner.id)).toBe('owner');
      expect(await roleOf(owner, owner.org, member.id)).toBe('member');
    });

    it('an expired invitation cannot be accepted', async () => {
      const owner = await signup(t);
      const invitee = await signup(t);
      const invite = await owner.post(`/console/api/orgs/${owner.org}/invites`, {
        email: invitee.email,
        role: 'member',
      });
      t.clock.advance(7 * 24 * 3600_000 + 1);
      const res = await invitee.post(`/console/api/invites/${invite.body.url.split('/').pop()}/accept`);
      expect(res.status).toBe(404);
    });

    it('only owners invite owners; admins invite admins and members; members invite nobody', async () => {
      const owner = await signup(t);
      const admin = await signup(t);
      const member = await signup(t);
      await addMember(owner, owner.org, admin, 'admin');
      await addMember(owner, owner.org, member, 'member');
      const path = `/console/api/orgs/${owner.org}/invites`;
      expect((await admin.post(path, { email: 'o@example.com', role: 'owner' })).status).toBe(403);
      expect((await admin.post(path, { email: 'a@example.com', role: 'admin' })).status).toBe(201);
      expect((await member.post(path, { email: 'm@example.com', role: 'member' })).status).toBe(403);
      expect((await owner.post(path, { email: 'o@example.com', role: 'owner' })).status).toBe(201);
    });
  });

  describe('roles', () => {
    let owner: Person;
    let admin: Person;
    let member: Person;

    beforeEach(async () => {
      owner = await signup(t);
      admin = await signup(t);
      member = await signup(t);
      await addMember(owner, owner.org, admin, 'admin');
      await addMember(owner, owner.org, member, 'member');
    });

    it('the last owner cannot be demoted (409)', async () => {
      const res = await owner.patch(`${members(owner.org)}/${owner.id}`, { role: 'admin' });
      expect(res.status).toBe(409);
      expect(res.body._tag).toBe('Conflict');
      expect(await roleOf(owner, owner.org, owner.id)).toBe('owner');
    });

    it('the last owner cannot be removed, not even by leaving (409)', async () => {
      expect((await owner.del(`${members(owner.org)}/${owner.id}`)).status).toBe(409);
      expect(await roleOf(owner, owner.org, owner.id)).toBe('owner');
    });

    it('with a second owner, an owner can be demoted', async () => {
      expect((await owner.patch(`${members(owner.org)}/${admin.id}`, { role: 'owner' })).status).toBe(204);
      expect((await admin.patch(`${members(owner.org)}/${owner.id}`, { role: 'member' })).status).toBe(204);
      expect(await roleOf(admin, owner.org, owner.id)).toBe('member');
    });

    it('only owners create owners or demote owners', async () => {
      expect((await admin.patch(`${members(owner.org)}/${member.id}`, { role: 'owner' })).status).toBe(403);
      expect((await owner.patch(`${members(owner.org)}/${admin.id}`, { role: 'owner' })).status).toBe(204);
      const second = await signup(t);
      await addMember(owner, owner.org, second, 'admin');
      expect((await second.patch(`${members(owner.org)}/${admin.id}`, { role: 'member' })).status).toBe(403);
      expect((await second.del(`${members(owner.org)}/${admin.id}`)).status).toBe(403);
    });

    it('admins manage members and admins', async () => {
      expect((await admin.patch(`${members(owner.org)}/${member.id}`, { role: 'admin' })).status).toBe(204);
      expect((await admin.patch(`${members(owner.org)}/${member.id}`, { role: 'member' })).status).toBe(204);
      expect((await member.patch(`${members(owner.org)}/${admin.id}`, { role: 'member' })).status).toBe(403);
      expect((await member.del(`${members(owner.org)}/${admin.id}`)).status).toBe(403);
      expect((await admin.del(`${members(owner.org)}/${member.id}`)).status).toBe(204);
      expect(await roleOf(owner, owner.org, member.id)).toBeUndefined();
    });

    it('a bad role is 400 and an unknown member 404', async () => {
      expect((await owner.patch(`${members(owner.org)}/${member.id}`, { role: 'god' })).status).toBe(400);
      expect((await owner.patch(`${members(owner.org)}/usr_nobody`, { role: 'admin' })).status).toBe(404);
    });

    it('removing a member ends their personal keys for that workspace and their access through tokens', async () => {
      const key = (await member.post(`/console/api/orgs/${owner.org}/keys`, { name: 'k', permission: 'all' }))
        .body.key;
      const token = (await member.post('/console/api/tokens', { name: 't' })).body.token;
      const asToken = () =>
        t.http.get(members(owner.org)).set('authorization', bearer(token)).set('x-org-id', owner.org);
      expect((await t.http.get(members(owner.org)).set('authorization', bearer(key))).status).toBe(200);
      expect((await asToken()).status).toBe(200);
      expect((await owner.del(`${members(owner.org)}/${member.id}`)).status).toBe(204);
      expect((await t.http.get('/console/api/user').set('authorization', bearer(key))).status).toBe(401);
      expect((await asToken()).status).toBe(403);
      expect((await member.get(members(owner.org))).status).toBe(403);
      const keys = await t.http.get(`/console/api/orgs/${member.org}/keys`).set('cookie', member.cookie);
      expect(keys.status).toBe(200);
    });

    it('a member may leave', async () => {
      expect((await member.del(`${members(owner.org)}/${member.id}`)).status).toBe(204);
      expect((await member.get('/console/api/orgs')).body.map((o: { id: string }) => o.id)).toEqual([
        member.org,
      ]);
    });
  });
});
