import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';
import { bearer, Person, signup } from '../../helpers/console';
import { eventually } from '../../helpers/eventually';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { gatewayCatalogue } from '../../helpers/gateway-catalogue';
import { createTestApp, TestApp } from '../../helpers/test-app';

const SECRET = 'key-controls-test-secret-0123456789';

describe('per-key controls on the gateway: allowed models, requests and tokens a minute (shared by every node)', () => {
  let t: TestApp;
  let second: TestApp;
  let upstream: ScriptedModelServer;
  let owner: Person;
  let sa: string;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'ok', usage: { input: 10, output: 10 } };
    const file = gatewayCatalogue(
      `providers:
  up:
    base_url: ${upstream.baseURL}
    schema: openai-chat
    api_key_env: UP_KEY
    models:
      small: { prices: { input: 1, output: 2 } }
      large: { prices: { input: 1, output: 2 } }
  claude:
    base_url: ${upstream.baseURL}
    schema: anthropic
    api_key_env: UP_KEY
    models:
      haiku: { prices: { input: 1, output: 2 } }
`,
    );
    const env = { OUTPOST_GATEWAY_CONFIG: file, UP_KEY: 'sk-up', OUTPOST_SECRET_KEY: SECRET };
    t = await createTestApp({ env });
    second = await createTestApp({ env, databaseUrl: t.databaseUrl });
    second.clock.set(t.clock.now());
    owner = await signup(t);
    sa = (await owner.post(`/console/api/orgs/${owner.org}/service-accounts`, { name: 'ci' })).body.id;
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
    await upstream?.close();
  });

  const createKey = async (controls: object) => {
    const res = await owner.post(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`, {
      name: 'controlled',
      permission: 'inference',
      ...controls,
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; key: string; rate_limit: object; allowed_models: string[] | null };
  };
  const call = (app: TestApp, key: string, model = 'up/small') =>
    app.http
      .post('/inference/openai/v1/chat/completions')
      .set('authorization', bearer(key))
      .send({ model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] });

  it("a key limited to some models gets 403 in the caller's format for any other, on every route", async () => {
    const created = await createKey({ allowed_models: ['up/small', 'claude/haiku'] });
    expect(created.allowed_models).toEqual(['up/small', 'claude/haiku']);
    expect((await call(t, created.key, 'up/small')).status).toBe(200);
    expect((await call(t, created.key, 'small')).status).toBe(200);
    const openai = new OpenAI({
      baseURL: `${t.url}/inference/openai/v1`,
      apiKey: created.key,
      maxRetries: 0,
    });
    const refused = await openai.chat.completions
      .create({ model: 'up/large', messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((refused as Error).message).toContain(
      'This key may not use "up/large"; it may use: up/small, claude/haiku',
    );
    const anthropic = new Anthropic({
      baseURL: `${t.url}/inference/anthropic`,
      apiKey: created.key,
      maxRetries: 0,
    });
    const answer = await anthropic.messages.create({
      model: 'claude/haiku',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(answer.type).toBe('message');
  });

  it('requests a minute hold across two server processes, with 429 and Retry-After; the next minute opens again', async () => {
    const { key } = await createKey({ rate_limit: { requests_per_minute: 4 } });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(i % 2 ? second : t, key)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const limited = await call(t, key);
    expect(limited.body.error).toMatchObject({ type: 'rate_limit_error', code: 'TooManyRequestsError' });
    expect(limited.body.error.message).toBe("This key's limit of 4 requests a minute is reached");
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(61_000);
    second.clock.advance(61_000);
    expect((await call(t, key)).status).toBe(200);
  });

  it('a larger limit is reserved in leases far from it and one by one near it: 40 a minute admits exactly 40 across two processes', async () => {
    const { key } = await createKey({ rate_limit: { requests_per_minute: 40 } });
    const statuses: number[] = [];
    for (let i = 0; i < 46; i++) statuses.push((await call(i % 2 ? second : t, key)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(40);
    expect(statuses.slice(40)).toEqual([429, 429, 429, 429, 429, 429]);
  });

  it('tokens a minute count what each call used, and refuse the call after the limit is passed', async () => {
    const { key, id } = await createKey({ rate_limit: { tokens_per_minute: 30 } });
    // A call's tokens are counted in the shared store after its answer left; a node reads that counter at most
    // once a second of its clock (every node follows the test's).
    const counted = (tokens: number) =>
      eventually(
        () => t.app.get(RateLimiter).count(`key-tpm:${id}`, 60_000, true),
        (count) => count >= tokens,
      );
    expect((await call(t, key)).status).toBe(200);
    expect(await counted(20)).toBe(20);
    t.clock.advance(1_100);
    second.clock.advance(1_100);
    expect((await call(t, key)).status).toBe(200);
    expect(await counted(40)).toBe(40);
    t.clock.advance(1_100);
    second.clock.advance(1_100);
    const refused = await call(t, key);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe("This key's limit of 30 tokens a minute is reached");
  });

  it('controls are changed with PATCH, listed with the key, validated by field, and audited with what changed', async () => {
    const created = await createKey({});
    const path = `/console/api/orgs/${owner.org}/service-accounts/${sa}/keys/${created.id}`;
    const bad = await owner.patch(path, { rate_limit: { requests_per_minute: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^rate_limit\.requests_per_minute: /);
    // A value of the wrong type is told its type, not a bound it cannot be held to.
    const wrongTypes: Array<[object, string, string]> = [
      [{ allowed_models: 'up/small' }, 'allowed_models', 'allowed_models must be an array'],
      [{ monthly_budget_dollars: '5' }, 'monthly_budget_dollars', 'must be an amount in US dollars'],
      [{ rate_limit: { requests_per_minute: 'x' } }, 'rate_limit.requests_per_minute', 'must be an integer'],
      // An empty list would let the key call nothing while the Keys page shows no restriction: null says "any".
      [{ allowed_models: [] }, 'allowed_models', 'must name at least one model or route'],
    ];
    for (const [body, field, message] of wrongTypes) {
      const wrong = await owner.patch(path, body);
      expect([wrong.status, wrong.body.field]).toEqual([400, field]);
      expect(wrong.body.message).toContain(message);
    }
    const patched = await owner.patch(path, {
      rate_limit: { requests_per_minute: 100, tokens_per_minute: 50_000 },
      allowed_models: ['up/small'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      rate_limit: { requests_per_minute: 100, tokens_per_minute: 50_000 },
      allowed_models: ['up/small'],
    });
    // A changed key is seen by the gateway on the next call.
    expect((await call(t, created.key, 'up/large')).status).toBe(403);
    const listed = await owner.get(`/console/api/orgs/${owner.org}/service-accounts/${sa}/keys`);
    expect(listed.body.find((key: { id: string }) => key.id === created.id)).toMatchObject({
      rate_limit: { requests_per_minute: 100 },
      allowed_models: ['up/small'],
    });
    const cleared = await owner.patch(path, { rate_limit: null, allowed_models: null });
    expect(cleared.body).toMatchObject({
      rate_limit: { requests_per_minute: null, tokens_per_minute: null },
      allowed_models: null,
    });
    const audit = await owner.get(`/console/api/orgs/${owner.org}/audit`);
    const updates = audit.body.entries.filter((entry: { action: string }) => entry.action === 'key.updated');
    expect(updates.length).toBe(2);
    expect(JSON.stringify(updates)).toContain(
      '"changed":["rate_limit.requests_per_minute","rate_limit.tokens_per_minute","allowed_models"]',
    );
    // Each entry keeps what the changed controls were, so the audit page can say "from … to …".
    const previous = updates.map((entry: { details: { previous: unknown } }) => entry.details.previous);
    expect(previous).toEqual(
      expect.arrayContaining([
        {
          'rate_limit.requests_per_minute': null,
          'rate_limit.tokens_per_minute': null,
          allowed_models: null,
        },
        {
          'rate_limit.requests_per_minute': 100,
          'rate_limit.tokens_per_minute': 50_000,
          allowed_models: ['up/small'],
        },
      ]),
    );
    // Personal keys take the same controls.
    const personal = await owner.post(`/console/api/orgs/${owner.org}/keys`, {
      name: 'mine',
      permission: 'inference',
      allowed_models: ['up/small'],
    });
    expect(personal.body.allowed_models).toEqual(['up/small']);
    const renamed = await owner.patch(`/console/api/orgs/${owner.org}/keys/${personal.body.id}`, {
      name: 'renamed',
    });
    expect(renamed.body.name).toBe('renamed');
  });
});
