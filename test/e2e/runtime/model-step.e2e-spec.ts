import { Logger } from '@nestjs/common';
import { microCentsToDollars } from '../../../src/common/money';
import { cost } from '../../../src/modules/runtime/providers/cost';
import { PromptMessage } from '../../../src/modules/runtime/providers/history';
import { ModelStep } from '../../../src/modules/runtime/providers/model-step';
import { parseProviders, ProviderConfigMap } from '../../../src/modules/runtime/providers/provider-config';
import { ProviderRegistry } from '../../../src/modules/runtime/providers/provider-registry';
import {
  RetryPolicy,
  StepEvent,
  StepRetry,
  ToolSpec,
} from '../../../src/modules/runtime/providers/step.types';
import { freePort } from '../../helpers/processes';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TestClock } from '../../helpers/test-clock';

/** A user message in the provider's prompt shape. */
function user(text: string): PromptMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

const FAST: RetryPolicy = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1_000 };

const READ_TOOL: ToolSpec = {
  name: 'read',
  description: 'Read a file',
  inputSchema: {
    type: 'object',
    properties: { filePath: { type: 'string' } },
    required: ['filePath'],
    additionalProperties: false,
  },
};

const PROTOCOLS = [
  { protocol: 'openai', providerID: 'local', package: 'aisdk:@ai-sdk/openai-compatible' },
  { protocol: 'openai', providerID: 'openai', package: 'aisdk:@ai-sdk/openai' },
  { protocol: 'anthropic', providerID: 'anthropic', package: 'aisdk:@ai-sdk/anthropic' },
] as const;

describe('ModelStep against the scripted model server', () => {
  let server: ScriptedModelServer;
  let registry: ProviderRegistry;
  let clock: TestClock;
  let step: ModelStep;
  const env = { SCRIPTED_KEY: 'sk-scripted-secret', TEAM: 'blue' };

  // Outside an app, Nest's default logger would print the AI SDK's compatibility warnings.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']));

  beforeEach(async () => {
    server = await ScriptedModelServer.start();
    const providers: ProviderConfigMap = {};
    for (const { providerID, package: pkg } of PROTOCOLS) {
      providers[providerID] = {
        name: providerID,
        package: pkg,
        settings: { baseURL: server.baseURL, apiKey: '{env:SCRIPTED_KEY}' },
        headers: { 'x-team': 'team-{env:TEAM}' },
        models: { 'm-1': { name: 'Model One', cost: { input: 3, output: 15, cache_read: 0.3 } } },
      };
    }
    registry = new ProviderRegistry(providers, env);
    clock = new TestClock();
    step = new ModelStep(clock);
  });

  afterEach(() => server.close());

  describe.each(PROTOCOLS)('$package', ({ protocol, providerID }) => {
    const model = () => registry.resolve({ providerID, id: 'm-1' }).language;

    it('streams text deltas, returns the finish reason and usage, and sends system, history, tools and credentials', async () => {
      server.script({ text: ['Hel', 'lo', '!'], usage: { input: 120, output: 8 } });
      const events: StepEvent[] = [];
      const history: PromptMessage[] = [
        user('first question'),
        { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
        user('say hello'),
      ];

      const result = await step.run(
        {
          model: model(),
          system: 'You are a careful coding agent.',
          messages: history,
          tools: [READ_TOOL],
          onEvent: (event) => events.push(event),
        },
        FAST,
      );

      expect(result).toMatchObject({ status: 'completed', finish: 'stop', text: 'Hello!', attempts: 1 });
      expect(result.tokens).toEqual({ input: 120, output: 8, reasoning: 0, cache: { read: 0, write: 0 } });
      expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
        'Hel',
        'lo',
        '!',
      ]);
      expect(events[0].type).toBe('text-start');
      expect(events[events.length - 1].type).toBe('text-end');

      expect(server.requests).toHaveLength(1);
      const { body, headers, protocol: seen } = server.requests[0];
      expect(seen).toBe(protocol);
      expect(body.stream).toBe(true);
      expect(body.model).toBe('m-1');
      expect(headers['x-team']).toBe('team-blue');
      if (protocol === 'openai') {
        expect(headers.authorization).toBe('Bearer sk-scripted-secret');
        expect(body.messages).toEqual([
          { role: 'system', content: 'You are a careful coding agent.' },
          { role: 'user', content: 'first question' },
          { role: 'assistant', content: 'first answer' },
          { role: 'user', content: 'say hello' },
        ]);
        expect(body.tools).toEqual([
          {
            type: 'function',
            function: expect.objectContaining({ name: 'read', parameters: READ_TOOL.inputSchema }),
          },
        ]);
      } else {
        expect(headers['x-api-key']).toBe('sk-scripted-secret');
        expect(body.system).toEqual([{ type: 'text', text: 'You are a careful coding agent.' }]);
        expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
        expect(JSON.stringify(body.messages)).toContain('first answer');
        expect(body.tools).toEqual([
          expect.objectContaining({ name: 'read', input_schema: READ_TOOL.inputSchema }),
        ]);
      }
    });

    it('returns tool calls and sends their results back on the next step', async () => {
      server.script(
        {
          text: 'Let me look.',
          toolCalls: [{ id: 'call_a', name: 'read', input: { filePath: 'src/a.ts' } }],
        },
        { text: 'The file exports a.', usage: { input: 200, output: 10 } },
      );
      const events: StepEvent[] = [];
      const first = await step.run(
        {
          model: model(),
          messages: [user('what is in a.ts?')],
          tools: [READ_TOOL],
          onEvent: (e) => events.push(e),
        },
        FAST,
      );

      expect(first.status).toBe('completed');
      expect(first.finish).toBe('tool-calls');
      expect(first.toolCalls).toEqual([{ id: 'call_a', name: 'read', input: { filePath: 'src/a.ts' } }]);
      const types = events.map((e) => e.type);
      expect(types).toContain('tool-input-start');
      expect(types).toContain('tool-input-delta');
      expect(types.indexOf('tool-call')).toBeGreaterThan(types.indexOf('tool-input-start'));

      const second = await step.run(
        {
          model: model(),
          messages: [
            user('what is in a.ts?'),
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'Let me look.' },
                {
                  type: 'tool-call',
                  toolCallId: 'call_a',
                  toolName: 'read',
                  input: { filePath: 'src/a.ts' },
                },
              ],
            },
            {
              role: 'tool',
              content: [
                {
                  type: 'tool-result',
                  toolCallId: 'call_a',
                  toolName: 'read',
                  output: { type: 'text', value: '1: export const a = 1;' },
                },
              ],
            },
          ],
          tools: [READ_TOOL],
        },
        FAST,
      );
      expect(second).toMatchObject({ status: 'completed', finish: 'stop', text: 'The file exports a.' });

      const sent = JSON.stringify(server.requests[1].body.messages);
      expect(sent).toContain('call_a');
      expect(sent).toContain('export const a = 1;');
      if (protocol === 'openai') {
        const toolMessage = server.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
        expect(toolMessage).toMatchObject({ tool_call_id: 'call_a', content: '1: export const a = 1;' });
      } else {
        expect(sent).toContain('"type":"tool_result"');
      }
    });

    it('reports tool calls whose arguments are not valid JSON as invalid', async () => {
      server.script({ toolCalls: [{ id: 'call_bad', name: 'read', arguments: '{"filePath": ' }] });
      const result = await step.run({ model: model(), messages: [user('go')], tools: [READ_TOOL] }, FAST);
      expect(result.status).toBe('completed');
      expect(result.toolCalls).toHaveLength(1);
      expect(result.toolCalls[0]).toMatchObject({ id: 'call_bad', name: 'read' });
      expect(result.toolCalls[0].invalid).toEqual(expect.any(String));
    });

    it('streams reasoning separately from text', async () => {
      server.script({ reasoning: ['think ', 'hard'], text: 'done' });
      const events: StepEvent[] = [];
      const result = await step.run(
        { model: model(), messages: [user('go')], onEvent: (e) => events.push(e) },
        FAST,
      );
      if (protocol === 'anthropic' || providerID === 'local') {
        expect(result.reasoning).toBe('think hard');
        expect(events.some((e) => e.type === 'reasoning-delta')).toBe(true);
      }
      expect(result.text).toBe('done');
    });

    it('counts cached input separately and prices the step from the model config', async () => {
      server.script({ text: 'ok', usage: { input: 1_000, output: 500, cacheRead: 4_000 } });
      const result = await step.run({ model: model(), messages: [user('go')] }, FAST);

      expect(result.tokens).toMatchObject({ input: 1_000, output: 500, cache: { read: 4_000, write: 0 } });
      const price = registry.model({ providerID, id: 'm-1' }).cost;
      // 1000 × $3/M + 500 × $15/M + 4000 × $0.30/M = $0.003 + $0.0075 + $0.0012 = $0.0117
      expect(cost(price, result.tokens)).toBe(1_170_000);
      expect(microCentsToDollars(cost(price, result.tokens))).toBeCloseTo(0.0117, 10);
    });

    it('retries a 429 after the delay the provider asks for, reporting the retry, then succeeds', async () => {
      server.script(
        { error: { status: 429, message: 'slow down', headers: { 'retry-after-ms': '40' } } },
        { text: 'made it' },
      );
      const retries: StepRetry[] = [];
      const before = clock.now();
      const result = await step.run(
        { model: model(), messages: [user('go')], onRetry: (r) => retries.push(r) },
        FAST,
      );

      expect(result).toMatchObject({ status: 'completed', text: 'made it', attempts: 2 });
      expect(server.requests).toHaveLength(2);
      expect(retries).toHaveLength(1);
      expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 40, error: { type: 'APIError', status: 429 } });
      expect(retries[0].error.message).toContain('slow down');
      expect(retries[0].at).toBeGreaterThanOrEqual(before + 40);
    });

    it('fails the step after the bounded number of retries of a repeated 500', async () => {
      server.script(
        { error: { status: 500, message: 'boom' } },
        { error: { status: 502, message: 'boom' } },
        { error: { status: 503, message: 'boom' } },
        { text: 'never reached' },
      );
      const retries: StepRetry[] = [];
      const result = await step.run(
        { model: model(), messages: [user('go')], onRetry: (r) => retries.push(r) },
        FAST,
      );

      expect(result).toMatchObject({
        status: 'failed',
        finish: 'error',
        attempts: 3,
        error: { type: 'APIError', status: 503 },
      });
      expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
      expect(retries.map((r) => r.delayMs)).toEqual([1, 2]);
      expect(server.requests).toHaveLength(3);
      expect(server.pending).toBe(1);
    });

    it('retries an overloaded error sent inside the stream, reporting it; the retried answer stands alone', async () => {
      server.script(
        { text: 'half an ans', streamError: { type: 'overloaded_error', message: 'Overloaded' } },
        { text: 'a whole answer' },
      );
      const retries: StepRetry[] = [];
      const result = await step.run(
        { model: model(), messages: [user('go')], onRetry: (r) => retries.push(r) },
        FAST,
      );
      expect(result).toMatchObject({ status: 'completed', text: 'a whole answer', attempts: 2 });
      expect(retries).toEqual([
        expect.objectContaining({
          attempt: 1,
          error: { type: 'APIError', message: 'overloaded_error: Overloaded' },
        }),
      ]);
    });

    it('fails at once on an error inside the stream that will not pass', async () => {
      server.script({
        text: 'x',
        streamError: { type: 'invalid_request_error', message: 'prompt is too long' },
      });
      const result = await step.run({ model: model(), messages: [user('go')] }, FAST);
      expect(result).toMatchObject({
        status: 'failed',
        attempts: 1,
        // A prompt larger than the context is not retried as it is (the agent loop compacts first).
        error: { type: 'ContextOverflowError', message: 'invalid_request_error: prompt is too long' },
      });
    });

    it('does not retry a 400', async () => {
      server.script({ error: { status: 400, message: 'bad request' } }, { text: 'never reached' });
      const result = await step.run({ model: model(), messages: [user('go')] }, FAST);
      expect(result).toMatchObject({ status: 'failed', attempts: 1, error: { status: 400 } });
      expect(server.requests).toHaveLength(1);
    });

    it('stops at once when the signal aborts mid-stream', async () => {
      server.script({ text: 'partial', hold: true });
      const controller = new AbortController();
      const result = await step.run(
        {
          model: model(),
          messages: [user('go')],
          signal: controller.signal,
          onEvent: (e) => {
            if (e.type === 'text-delta') controller.abort();
          },
        },
        FAST,
      );
      expect(result.status).toBe('interrupted');
      expect(result.text).toBe('partial');
    });

    it('stops waiting for a retry when the signal aborts during the backoff', async () => {
      server.script({ error: { status: 429, headers: { 'retry-after': '600' } } }, { text: 'never reached' });
      const controller = new AbortController();
      const retries: StepRetry[] = [];
      const result = await step.run(
        {
          model: model(),
          messages: [user('go')],
          signal: controller.signal,
          onRetry: (r) => {
            retries.push(r);
            controller.abort();
          },
        },
        { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 600_000 },
      );
      expect(retries[0].delayMs).toBe(600_000);
      expect(result.status).toBe('interrupted');
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe('ModelStep against a provider that does not answer', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']));

  it('retries a refused connection, then fails with an APIError without status', async () => {
    const port = await freePort();
    const registry = new ProviderRegistry({
      down: {
        package: 'aisdk:@ai-sdk/openai-compatible',
        settings: { baseURL: `http://127.0.0.1:${port}/v1` },
        models: { m: {} },
      },
    });
    const retries: StepRetry[] = [];
    const result = await new ModelStep(new TestClock()).run(
      {
        model: registry.resolve({ providerID: 'down', id: 'm' }).language,
        messages: [user('go')],
        onRetry: (r) => retries.push(r),
      },
      FAST,
    );
    expect(result).toMatchObject({ status: 'failed', attempts: 3, error: { type: 'APIError' } });
    expect(result.error?.status).toBeUndefined();
    expect(result.error?.message).toMatch(/Cannot connect/);
    expect(retries).toHaveLength(2);
  });
});

describe('ProviderRegistry', () => {
  const providers: ProviderConfigMap = {
    local: {
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: 'http://127.0.0.1:1/v1', apiKey: '{env:MISSING_KEY}' },
      models: { small: { name: 'Small', variants: { high: { reasoningEffort: 'high' } } } },
    },
    nourl: { package: 'aisdk:@ai-sdk/openai-compatible', models: { m: {} } },
    odd: { package: 'aisdk:@ai-sdk/other' as never, models: { m: {} } },
  };
  const registry = new ProviderRegistry(providers, { OTHER: 'x' });

  it('names an unknown provider, model or variant in a 400', () => {
    expect(() => registry.resolve({ providerID: 'nope', id: 'small' })).toThrow(
      expect.objectContaining({ status: 400, tag: 'ProviderNotFoundError', fields: { providerID: 'nope' } }),
    );
    expect(() => registry.resolve({ providerID: 'local', id: 'big' })).toThrow(
      expect.objectContaining({
        status: 400,
        tag: 'ModelNotFoundError',
        fields: { providerID: 'local', modelID: 'big' },
      }),
    );
    expect(() => registry.model({ providerID: 'local', id: 'small', variant: 'max' })).toThrow(
      expect.objectContaining({
        status: 400,
        fields: { providerID: 'local', modelID: 'small', variant: 'max' },
      }),
    );
    expect(registry.has({ providerID: 'local', id: 'small', variant: 'high' })).toBe(true);
    expect(registry.has({ providerID: 'local', id: 'big' })).toBe(false);
  });

  it('names a missing environment variable without building the model', () => {
    expect(() => registry.resolve({ providerID: 'local', id: 'small' })).toThrow(
      /Provider local: environment variable MISSING_KEY is not set/,
    );
  });

  it('reads the environment at use time and passes variant options under the provider key', () => {
    const env: NodeJS.ProcessEnv = {};
    const late = new ProviderRegistry(providers, env);
    env.MISSING_KEY = 'now-set';
    const resolved = late.resolve({ providerID: 'local', id: 'small', variant: 'high' });
    expect(resolved.providerOptions).toEqual({ local: { reasoningEffort: 'high' } });
    expect(resolved.config.name).toBe('Small');
  });

  it('reports config problems: no base URL for openai-compatible, unknown package', () => {
    expect(() => registry.resolve({ providerID: 'nourl', id: 'm' })).toThrow(/settings.baseURL is required/);
    expect(() => registry.resolve({ providerID: 'odd', id: 'm' })).toThrow(
      /unknown package aisdk:@ai-sdk\/other/,
    );
  });

  it('prices nothing for a model without cost', () => {
    expect(cost(undefined, { input: 10, output: 10, reasoning: 0, cache: { read: 0, write: 0 } })).toBe(0);
  });

  it('keeps the valid entries of a config provider map and names every broken one', () => {
    const parsed = parseProviders({
      good: {
        package: 'aisdk:@ai-sdk/anthropic',
        settings: { apiKey: '{env:KEY}' },
        models: {
          fine: { name: 'Fine', cost: { input: 3, output: 15 }, limit: { context: 200000 } },
          cheap: { cost: { input: -1, output: 1 } },
          huge: { limit: { context: 1.5 } },
        },
      },
      wrongPackage: { package: 'openai', models: {} },
      noModels: { package: 'aisdk:@ai-sdk/openai' },
      badHeaders: { package: 'aisdk:@ai-sdk/openai', headers: { 'x-n': 1 }, models: {} },
    });
    expect(Object.keys(parsed.providers)).toEqual(['good']);
    expect(Object.keys(parsed.providers.good.models)).toEqual(['fine']);
    expect(parsed.problems).toEqual([
      'provider.good.models.cheap: cost.input must be a number of USD per million tokens',
      'provider.good.models.huge: limit.context must be a positive integer',
      expect.stringMatching(
        /^provider\.wrongPackage: package must be one of aisdk:@ai-sdk\/openai-compatible/,
      ),
      'provider.noModels: models must be an object keyed by model id',
      'provider.badHeaders: headers must map names to strings',
    ]);
    expect(parseProviders(undefined)).toEqual({ providers: {}, problems: [] });
    expect(parseProviders([1]).problems).toEqual(['provider: must be an object keyed by provider id']);
  });
});
