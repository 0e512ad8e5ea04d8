import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { serviceAccountKey, signup } from '../../helpers/console';
import { upstreamCatalogue } from '../../helpers/gateway-catalogue';
import { opencodeEnv, Tui } from '../../helpers/opencode';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

jest.setTimeout(180_000);

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('opencode auth login <console> (the released 1.18.33 CLI)', () => {
  let t: TestApp;
  let upstream: ScriptedModelServer;

  beforeAll(async () => {
    upstream = await ScriptedModelServer.start();
    upstream.answerUnstreamed = true;
    upstream.fallback = { text: 'through the gateway', usage: { input: 3, output: 3 } };
    const catalogue = upstreamCatalogue(upstream, [
      {
        name: 'up',
        schema: 'openai-chat',
        keyEnv: 'UP_KEY',
        models: ['small: { prices: { input: 1, output: 2 } }'],
      },
    ]);
    t = await createTestApp({ env: { OUTPOST_GATEWAY_CONFIG: catalogue, UP_KEY: 'sk-up' } });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('GET /console/.well-known/opencode: how to get a key, and the gateway as providers keyed by it', async () => {
    const res = await t.http.get('/console/.well-known/opencode');
    expect(res.status).toBe(200);
    expect(res.body.auth).toEqual({
      command: ['sh', '-c', expect.stringContaining('/dev/tty'), 'outpost-login', t.url],
      env: 'OPENCODE_CONSOLE_TOKEN',
    });
    expect(res.body.config.provider.outpost).toEqual({
      name: 'Outpost gateway',
      env: ['OPENCODE_CONSOLE_TOKEN'],
      npm: '@ai-sdk/openai-compatible',
      options: {
        baseURL: `${t.url}/inference/openai/v1`,
        apiKey: '{env:OPENCODE_CONSOLE_TOKEN}',
        headers: {},
      },
      models: { 'up/small': { name: 'up/small' } },
    });
  });

  it('asks for a key on the terminal, keeps it, and the config it gives reaches the gateway with it', async () => {
    const owner = await signup(t);
    const { key } = await serviceAccountKey(owner, owner.org, 'inference');
    const env = opencodeEnv();
    const tui = new Tui(['auth', 'login', `${t.url}/console`], env);
    try {
      await tui.waitFor('paste it here');
      tui.type(`${key}\r`);
      await tui.waitFor(`Logged into ${t.url}/console`);
      expect(await tui.exited).toBe(0);
    } finally {
      await tui.stop();
    }
    const auth = JSON.parse(readFileSync(join(env.XDG_DATA_HOME, 'opencode', 'auth.json'), 'utf8')) as Data;
    expect(auth[`${t.url}/console`]).toEqual({
      type: 'wellknown',
      key: 'OPENCODE_CONSOLE_TOKEN',
      token: key,
    });

    // What opencode merges from then on, with the kept key in its variable: a call through the gateway.
    const { config } = (await t.http.get('/console/.well-known/opencode')).body as Data;
    const provider = config.provider.outpost;
    const client = new OpenAI({ baseURL: provider.options.baseURL, apiKey: auth[`${t.url}/console`].token });
    const answer = await client.chat.completions.create({
      model: Object.keys(provider.models)[0],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0].message.content).toBe('through the gateway');
  });

  it('anything but an API key is refused on the terminal and nothing is kept', async () => {
    const env = opencodeEnv();
    const tui = new Tui(['auth', 'login', `${t.url}/console`], env);
    try {
      await tui.waitFor('paste it here');
      tui.type('my password\r');
      await tui.waitFor('not an Outpost API key');
    } finally {
      await tui.stop();
    }
    expect(() => readFileSync(join(env.XDG_DATA_HOME, 'opencode', 'auth.json'), 'utf8')).toThrow();
  });
});
