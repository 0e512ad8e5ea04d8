import request from 'supertest';
import { TestApp } from './test-app';

export const PASSWORD = 'correct horse battery';

/** A signed-in person: their cookie, and request builders that send it the way the console's pages do. */
export interface Person {
  id: string;
  email: string;
  cookie: string;
  /** The id of their "Personal" workspace. */
  org: string;
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  patch(path: string, body: object): request.Test;
  put(path: string, body: object): request.Test;
  del(path: string): request.Test;
}

export function sessionCookie(res: request.Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = header.find((line) => line.startsWith('outpost_console='));
  if (!cookie) throw new Error(`no sign-in cookie in ${JSON.stringify(res.headers)}`);
  return cookie.split(';')[0];
}

export function asPerson(t: TestApp, cookie: string): Omit<Person, 'id' | 'email' | 'org'> {
  const withCookie = (test: request.Test) => test.set('cookie', cookie).set('origin', t.url);
  return {
    cookie,
    get: (path) => withCookie(t.http.get(path)),
    post: (path, body = {}) => withCookie(t.http.post(path)).send(body),
    patch: (path, body) => withCookie(t.http.patch(path)).send(body),
    put: (path, body) => withCookie(t.http.put(path)).send(body),
    del: (path) => withCookie(t.http.delete(path)),
  };
}

let counter = 0;

/** Signs a new person up (open sign-up) and returns them signed in. */
export async function signup(t: TestApp, email = `person${++counter}@example.com`): Promise<Person> {
  const res = await t.http.post('/console/api/auth/signup').send({ email, password: PASSWORD });
  if (res.status !== 201) throw new Error(`signup ${res.status} ${JSON.stringify(res.body)}`);
  const person = asPerson(t, sessionCookie(res));
  const orgs = await person.get('/console/api/orgs');
  if (orgs.status !== 200 || !orgs.body[0]) {
    const via = [res, orgs]
      .map((answer) => answer.headers['x-test-upstream'] ?? 'the server')
      .join(', then ');
    throw new Error(
      `the workspaces of ${email} just signed up (${via}): ${orgs.status} ${JSON.stringify(orgs.body)}`,
    );
  }
  return { ...person, id: res.body.user.id, email, org: orgs.body[0].id };
}

export const bearer = (token: string) => `Bearer ${token}`;

/** A service account in `org` with one key of the given permission; returns the key. */
export async function serviceAccountKey(
  owner: Person,
  org: string,
  permission: 'all' | 'inference' = 'all',
  extra: { expires_at?: string } = {},
): Promise<{ sa: string; key: string; keyId: string }> {
  const sa = await owner.post(`/console/api/orgs/${org}/service-accounts`, { name: 'ci' });
  if (sa.status !== 201) throw new Error(`service account ${sa.status} ${JSON.stringify(sa.body)}`);
  const key = await owner.post(`/console/api/orgs/${org}/service-accounts/${sa.body.id}/keys`, {
    name: 'deploy',
    permission,
    ...extra,
  });
  if (key.status !== 201) throw new Error(`key ${key.status} ${JSON.stringify(key.body)}`);
  return { sa: sa.body.id, key: key.body.key, keyId: key.body.id };
}

/** Makes `person` a member of `owner`'s workspace `org` with `role`, through an invitation. */
export async function addMember(
  owner: Person,
  org: string,
  person: Person,
  role: 'owner' | 'admin' | 'member',
) {
  const invite = await owner.post(`/console/api/orgs/${org}/invites`, { email: person.email, role });
  if (invite.status !== 201) throw new Error(`invite ${invite.status} ${JSON.stringify(invite.body)}`);
  const token = String(invite.body.url).split('/').pop();
  const accepted = await person.post(`/console/api/invites/${token}/accept`);
  if (accepted.status !== 200) throw new Error(`accept ${accepted.status} ${JSON.stringify(accepted.body)}`);
}

/**
 * The people a console test plays: an owner, an admin and a member of the owner's workspace, and a stranger outside
 * it (signed up in that order, with these emails when given), and a service account of the owner's workspace with an
 * All key and another with an Inference key.
 */
export async function signupTeam(
  t: TestApp,
  emails: { owner?: string; admin?: string; member?: string; stranger?: string } = {},
) {
  const owner = await signup(t, emails.owner);
  const admin = await signup(t, emails.admin);
  const member = await signup(t, emails.member);
  const stranger = await signup(t, emails.stranger);
  await addMember(owner, owner.org, admin, 'admin');
  await addMember(owner, owner.org, member, 'member');
  const all = await serviceAccountKey(owner, owner.org, 'all');
  const inference = await serviceAccountKey(owner, owner.org, 'inference');
  return { owner, admin, member, stranger, allKey: all.key, allSa: all.sa, inferenceKey: inference.key };
}
