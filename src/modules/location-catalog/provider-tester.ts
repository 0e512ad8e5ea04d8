import { Injectable } from '@nestjs/common';
import { APICallError, LoadAPIKeyError } from 'ai';
import { networkFailure } from '@/common/net/network-failure';
import { refusalHint } from '@/common/net/refusal-hint';
import { ResolvedLocation } from '../locations/location.types';
import { ProviderConfigError } from '../runtime/providers/provider.errors';
import { ProvidersService } from '../runtime/providers/providers.service';
import { ProviderLookupError } from './catalog.errors';
import { ProviderTestDto } from './dto/provider-test.dto';

/** How long a test waits for the provider's answer. */
export const PROVIDER_TEST_TIMEOUT_MS = 5_000;

/** The address the provider's package calls when its config names none. */
const DEFAULT_URLS: Record<string, string> = {
  'aisdk:@ai-sdk/openai': 'https://api.openai.com/v1',
  'aisdk:@ai-sdk/anthropic': 'https://api.anthropic.com/v1',
};

/**
 * "Test" on the web app's Models page: one small real call (a one-token answer) to a location's provider through
 * the model a prompt would use (the same package, base URL, key and headers), answered within 5 s with what
 * happened, naming the provider, the URL and the cause. Not recorded anywhere: a few tokens at most.
 */
@Injectable()
export class ProviderTester {
  constructor(private readonly providers: ProvidersService) {}

  async test(location: ResolvedLocation, providerID: string, modelID?: string): Promise<ProviderTestDto> {
    const registry = await this.providers.forLocation(location);
    const provider = registry.configs()[providerID];
    if (!provider) throw new ProviderLookupError(providerID);
    const model = modelID ?? Object.keys(provider.models ?? {})[0] ?? null;
    const configured = provider.settings?.baseURL ?? DEFAULT_URLS[provider.package] ?? null;
    const named = `Provider “${provider.name ?? providerID}”${configured ? ` at ${configured}` : ''}`;
    const result = { provider: providerID, model, url: configured };
    const started = performance.now();
    const done = (ok: boolean, status: number | null, message: string): ProviderTestDto => ({
      ...result,
      ok,
      status,
      latency_ms: Math.round(performance.now() - started),
      message,
    });
    if (model === null) return done(false, null, `${named} has no model to try. Add one to the provider.`);
    let language;
    try {
      language = registry.resolve({ providerID, id: model }).language;
    } catch (error) {
      if (error instanceof ProviderConfigError) return done(false, null, `${named}: ${error.message}.`);
      throw error; // a model the provider does not have: a 400 naming it
    }
    const deadline = AbortSignal.timeout(PROVIDER_TEST_TIMEOUT_MS);
    try {
      await language.doGenerate({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'ping' }] }],
        maxOutputTokens: 1,
        abortSignal: deadline,
      });
      return done(
        true,
        200,
        `${named} answered (model ${model}, ${Math.round(performance.now() - started)} ms).`,
      );
    } catch (error) {
      if (APICallError.isInstance(error)) {
        const status = error.statusCode ?? null;
        if (status === null)
          return done(
            false,
            null,
            `${named} could not be reached: ${networkFailure(error)}. Check the base URL.`,
          );
        return done(
          false,
          status,
          `${named} refused the call with HTTP ${status}: ${error.message.slice(0, 300)}. ${refusalHint(status)}`,
        );
      }
      if (LoadAPIKeyError.isInstance(error))
        return done(
          false,
          null,
          `${named} has no key: ${error.message} Add one on this page or in opencode.json.`,
        );
      if (deadline.aborted)
        return done(
          false,
          null,
          `${named} did not answer within ${PROVIDER_TEST_TIMEOUT_MS / 1000} s. Check the base URL.`,
        );
      return done(
        false,
        null,
        `${named} could not be reached: ${networkFailure(error)}. Check the base URL.`,
      );
    }
  }
}
