/** A person signed up on a running server (a real process), with a service account and its inference key. */
export async function inferenceAccount(
  url: string,
  email: string,
): Promise<{ cookie: string; org: string; sa: string; key: string }> {
  const json = { 'content-type': 'application/json', origin: url };
  const signup = await fetch(`${url}/console/api/auth/signup`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  const cookie = signup.headers.get('set-cookie')!.split(';')[0];
  const headers = { ...json, cookie };
  const orgs = (await (await fetch(`${url}/console/api/orgs`, { headers })).json()) as Array<{ id: string }>;
  const org = orgs[0].id;
  const sa = (await (
    await fetch(`${url}/console/api/orgs/${org}/service-accounts`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'caller' }),
    })
  ).json()) as { id: string };
  const { key } = (await (
    await fetch(`${url}/console/api/orgs/${org}/service-accounts/${sa.id}/keys`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'k', permission: 'inference' }),
    })
  ).json()) as { key: string };
  return { cookie, org, sa: sa.id, key };
}

/** Sets a member's monthly budget in dollars through the console API. */
export async function setMemberBudget(
  url: string,
  account: { cookie: string; org: string },
  member: string,
  dollars: number,
): Promise<void> {
  const res = await fetch(`${url}/console/api/v1/budgets/members/${member}`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      origin: url,
      cookie: account.cookie,
      'x-org-id': account.org,
    },
    body: JSON.stringify({ budget_dollars: dollars }),
  });
  if (res.status !== 204) throw new Error(`budget ${res.status} ${await res.text()}`);
}
