import { bearer, Person, serviceAccountKey, signup } from '../../helpers/console';
import { eventually } from '../../helpers/eventually';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

type Row = Record<string, unknown> & { key: string; model: string };

/** Issue 48: the request log names what a person reads (members, keys, connections' models) and costs in dollars. */
describe('the request log with names: GET /console/api/orgs/{org}/usage/requests, JSON and CSV', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let connection: string;
  let sa: string;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    t = await createTestApp({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } });
    owner = await signup(t, 'ada@example.com');
    ({ sa, key, keyId } = await serviceAccountKey(owner, owner.org, 'inference'));
    const created = await owner.post(`/console/api/orgs/${owner.org}/connections`, {
      name: 'Together',
      base_url: upstream.baseURL,
      schema: 'openai-chat',
      auth: { mode: 'bearer', credential: 'sk-connection-secret' },
      // $3 and $6 per million tokens: 1,000 in and 500 out cost 300,000 + 300,000 micro-cents, $0.006.
      models: { 'llama-70b': { name: 'Llama 3.3 70B', prices: { input: 3, output: 6 } } },
    });
    expect(created.status).toBe(201);
    connection = created.body.id;
    upstream.script({ text: 'ok', usage: { input: 1000, output: 500 } });
    const call = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model: `${connection}/llama-70b`, messages: [{ role: 'user', content: 'x' }], max_tokens: 10 });
    expect(call.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const logged = () =>
    eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${keyId}`),
      (res) => res.status !== 200 || res.body.data.length >= 1,
    );

  it("names the member, the key and the connection's model beside their ids", async () => {
    const res = await logged();
    expect(res.status).toBe(200);
    const row: Row = res.body.data[0];
    expect(row).toMatchObject({
      member: sa,
      member_name: 'ci',
      key: keyId,
      key_name: 'ci / deploy',
      model: `${connection}/llama-70b`,
      model_name: 'Together / Llama 3.3 70B',
      cost_micro_cents: '600000',
    });
  });

  it('the CSV keeps every id column and adds the names and the cost in dollars beside the micro-cents', async () => {
    await logged();
    const csv = await owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${keyId}&format=csv`);
    expect(csv.status).toBe(200);
    const [header, line] = csv.text.split('\r\n');
    const columns = header.split(',');
    expect(columns).toEqual([
      'time',
      'request_id',
      'member',
      'member_name',
      'key',
      'key_name',
      'route',
      'model',
      'model_name',
      'served_by',
      'status',
      'outcome',
      'input_tokens',
      'output_tokens',
      'cost_micro_cents',
      'cost_dollars',
      'duration_ms',
      'ttfb_ms',
    ]);
    const cells = Object.fromEntries(line.split(',').map((cell, index) => [columns[index], cell]));
    expect(cells).toMatchObject({
      member: sa,
      member_name: 'ci',
      key: keyId,
      key_name: 'ci / deploy',
      model: `${connection}/llama-70b`,
      model_name: 'Together / Llama 3.3 70B',
      cost_micro_cents: '600000',
      cost_dollars: '0.006',
    });
  });
  it('names a person by their name, and a renamed connection by its new name', async () => {
    const personal = await owner.post(`/console/api/orgs/${owner.org}/keys`, {
      name: 'laptop',
      permission: 'inference',
    });
    expect(personal.status).toBe(201);
    const renamed = await owner.patch(`/console/api/orgs/${owner.org}/connections/${connection}`, {
      name: 'Together AI',
    });
    expect(renamed.status).toBe(200);
    upstream.script({ text: 'ok', usage: { input: 1, output: 1 } });
    const call = await t.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(personal.body.key))
      .send({ model: `${connection}/llama-70b`, messages: [{ role: 'user', content: 'x' }], max_tokens: 10 });
    expect(call.status).toBe(200);
    const res = await eventually(
      () => owner.get(`/console/api/orgs/${owner.org}/usage/requests?key=${personal.body.id}`),
      (answer) => answer.status !== 200 || answer.body.data.length >= 1,
    );
    const members = await owner.get(`/console/api/orgs/${owner.org}/members`);
    const ada = members.body.find((member: { user_id: string }) => member.user_id === owner.id);
    expect(res.body.data[0]).toMatchObject({
      member: owner.id,
      member_name: ada.name,
      key_name: 'laptop',
      model_name: 'Together AI / Llama 3.3 70B',
    });
  });
});
