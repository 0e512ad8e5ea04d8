/**
 * The app the inference gateway tests run against: a catalogue of three providers (OpenAI chat, Responses,
 * Anthropic) on a scripted upstream, an owner with an inference key, the official SDKs pointed at the gateway, and
 * the spend of a member as settled. Call `useGatewayApp()` inside a describe: `t`, `upstream`, `owner`, `key` and
 * `saId` are set from then on.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Person, serviceAccountKey, signup } from '../../helpers/console';
import { upstreamCatalogue } from '../../helpers/gateway-catalogue';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

export const UPSTREAM_OPENAI_KEY = 'sk-upstream-openai-5e1f';
export const UPSTREAM_ANTHROPIC_KEY = 'sk-ant-upstream-77c2';
/** Shared by the two server processes of the revocation test, as the README asks of a cluster. */
export const SECRET_KEY = 'gateway-test-pepper-0123456789abcdef';

/** $1 / $2 per million input / output tokens: 100 and 200 micro-cents a token. */
export function catalogue(upstream: ScriptedModelServer): string {
  return upstreamCatalogue(upstream, [
    {
      name: 'scripted',
      schema: 'openai-chat',
      keyEnv: 'SCRIPTED_OPENAI_KEY',
      models: ['small: { prices: { input: 1, output: 2 }, max_output: 4000 }'],
    },
    {
      name: 'responder',
      schema: 'openai-responses',
      keyEnv: 'SCRIPTED_OPENAI_KEY',
      models: ['reason: { upstream: reason-1, prices: { input: 2, output: 8, cache_read: 0.5 } }'],
    },
    {
      name: 'claude',
      schema: 'anthropic',
      keyEnv: 'SCRIPTED_ANTHROPIC_KEY',
      models: [
        'haiku: { prices: { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 } }',
        'claude-haiku-4-5: {}',
      ],
    },
  ]);
}

export let t: TestApp;
export let upstream: ScriptedModelServer;
export let owner: Person;
export let key: string;
export let saId: string;

/**
 * Starts the upstream and the app, signs the owner up with an inference key, before the describe's tests. `env`:
 * more of the app's environment (e.g. a shorter OUTPOST_GATEWAY_HOLD_WAIT_MS where calls are refused by design).
 */
export function useGatewayApp(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    t = await createTestApp({
      env: {
        OUTPOST_GATEWAY_CONFIG: catalogue(upstream),
        SCRIPTED_OPENAI_KEY: UPSTREAM_OPENAI_KEY,
        SCRIPTED_ANTHROPIC_KEY: UPSTREAM_ANTHROPIC_KEY,
        OUTPOST_SECRET_KEY: SECRET_KEY,
        OUTPOST_METRICS_TOKEN: 'gateway-metrics',
        // The scripted upstream of the connections listens on loopback, which connections may not reach by default.
        OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
        ...env,
      },
    });
    owner = await signup(t);
    const created = await serviceAccountKey(owner, owner.org, 'inference');
    key = created.key;
    saId = created.sa;
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });
}

export const openai = (apiKey = key) =>
  new OpenAI({ baseURL: `${t.url}/inference/openai/v1`, apiKey, maxRetries: 0 });
export const anthropic = (apiKey = key) =>
  new Anthropic({ baseURL: `${t.url}/inference/anthropic`, apiKey, maxRetries: 0 });
/** The spend settles right after the answer leaves: wait (at most 2 s) until it reads `expected`. */
export const spentBecomes = async (expected: bigint, member = saId) => {
  let now = await spent(member);
  for (let i = 0; i < 40 && now !== expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = await spent(member);
  }
  return now;
};
/**
 * This month's spend once every settlement of the requests answered so far was written: a call's settlement is in
 * its node's usage batch before its answer ends, and each node writes its batch now.
 */
export const spent = async (member = saId) => {
  for (const node of t.nodes) await node.flush();
  return spentNow(member);
};
const spentNow = async (member: string) => {
  const res = await owner.get('/console/api/v1/budgets/members').set('x-org-id', owner.org);
  return BigInt(res.body.find((row: { user_id: string }) => row.user_id === member).spent_micro_cents);
};
