/**
 * What the ModelStep tests share: a user message, fast retries, a quiet Nest logger, and a scripted model server
 * behind one provider per AI SDK package. `useScriptedProviders()` (inside a describe) starts them before each test;
 * the exported `server`, `registry`, `clock` and `step` are that test's.
 */
import { Logger } from '@nestjs/common';
import { PromptMessage } from '@/modules/runtime/providers/history';
import { ModelStep } from '@/modules/runtime/providers/model-step';
import { ProviderConfigMap } from '@/modules/runtime/providers/provider-config';
import { ProviderRegistry } from '@/modules/runtime/providers/provider-registry';
import { RetryPolicy } from '@/modules/runtime/providers/step.types';
import { ScriptedModelServer } from './scripted-model-server';
import { TestClock } from './test-clock';

/** A user message in the provider's prompt shape. */
export function user(text: string): PromptMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

export const FAST: RetryPolicy = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1_000 };

export const PROTOCOLS = [
  { protocol: 'openai', providerID: 'local', package: 'aisdk:@ai-sdk/openai-compatible' },
  { protocol: 'openai', providerID: 'openai', package: 'aisdk:@ai-sdk/openai' },
  { protocol: 'anthropic', providerID: 'anthropic', package: 'aisdk:@ai-sdk/anthropic' },
] as const;

/** Outside an app, Nest's default logger would print the AI SDK's compatibility warnings: off for the describe. */
export function quietNestLogger(): void {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose', 'fatal']));
}

export let server: ScriptedModelServer;
export let registry: ProviderRegistry;
export let clock: TestClock;
export let step: ModelStep;

/** Before each test, a scripted model server, a registry whose PROTOCOLS providers all point at it, a step. */
export function useScriptedProviders(): void {
  const env = { SCRIPTED_KEY: 'sk-scripted-secret', TEAM: 'blue' };

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
}
