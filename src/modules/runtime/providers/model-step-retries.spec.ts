/**
 * ModelStep's retries and stops, for each provider package: a 429 after the delay asked for, a repeated 500 up to
 * the bound, errors inside the stream, a 400 not retried, an abort mid-stream or in the backoff; then a provider
 * that does not answer at all.
 */
import { ModelStep } from '@/modules/runtime/providers/model-step';
import { ProviderRegistry } from '@/modules/runtime/providers/provider-registry';
import { StepRetry } from '@/modules/runtime/providers/step.types';
import { freePort } from '../../../../test/helpers/processes';
import { TestClock } from '../../../../test/helpers/test-clock';
import {
  FAST,
  PROTOCOLS,
  quietNestLogger,
  useScriptedProviders,
  user,
} from '../../../../test/helpers/model-step-fixture';
// Set by useScriptedProviders() before each test.
import { clock, registry, server, step } from '../../../../test/helpers/model-step-fixture';

describe('ModelStep against the scripted model server', () => {
  quietNestLogger();
  useScriptedProviders();

  describe.each(PROTOCOLS)('$package', ({ providerID }) => {
    const model = () => registry.resolve({ providerID, id: 'm-1' }).language;

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
  quietNestLogger();

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
    // It names the provider, the address it called, and where to fix them.
    expect(result.error?.message).toBe(
      `Cannot connect to the provider: connect ECONNREFUSED 127.0.0.1:${port} (provider "down": check its base URL and key on the web app's Models page or in the location's opencode.json)`,
    );
    expect(retries).toHaveLength(2);
  });
});
