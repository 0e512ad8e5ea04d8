import { Injectable } from '@nestjs/common';
import { networkFailure } from '@/common/net/network-failure';
import { refusalHint } from '@/common/net/refusal-hint';
import { ConnectionsService } from '../connections/connections.service';
import { ConnectionTestDto } from './dto/connection-test.dto';
import { CallSchema } from './gateway.config';
import { GatewayTargets } from './gateway-targets';
import { SCHEMA_PATHS } from './inference-request';
import { Caller, UpstreamSender } from './upstream-sender';

/** How long a test waits for the provider to start answering. */
export const CONNECTION_TEST_TIMEOUT_MS = 5_000;
/** The most of a refusal's body read for its message. */
const REFUSAL_BYTES = 4_096;

/** The smallest call of each schema: one word in, as few tokens out as the provider allows. */
function tinyCall(schema: CallSchema, model: string): object {
  if (schema === 'anthropic') return { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
  if (schema === 'openai-responses') return { model, input: 'ping', max_output_tokens: 16 };
  return { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] };
}

/** A provider's refusal in its own words: OpenAI's and Anthropic's `error.message`, else the start of the body. */
function refusalWords(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof parsed.error === 'object' ? parsed.error?.message : (parsed.error ?? parsed.message);
    if (typeof message === 'string' && message.trim()) return message.trim().slice(0, 300);
  } catch {
    // not JSON: its first line
  }
  return body.trim().split('\n')[0].slice(0, 300) || 'no explanation in the answer';
}

/**
 * "Test" on a connection: one small real call (a one-token answer of its first chat model) through the gateway's
 * own path (the outbound guard, the connection's credential and headers), answered within 5 s with what happened,
 * naming the connection, the URL and the cause. It is not metered: a few tokens at most, paid by the workspace's
 * own credential.
 */
@Injectable()
export class ConnectionTester {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly targets: GatewayTargets,
    private readonly sender: UpstreamSender,
  ) {}

  async test(workspaceId: string, connectionId: string): Promise<ConnectionTestDto> {
    const connection = await this.connections.forInference(workspaceId, connectionId);
    const schema = connection.schema as CallSchema;
    const url = `${connection.baseUrl}${SCHEMA_PATHS[schema]}`;
    const named = `Connection “${connection.name}” at ${url}`;
    const model = [...connection.models].find(([, entry]) => entry.kind !== 'embedding')?.[0] ?? null;
    const result = { connection_id: connection.id, connection_name: connection.name, url, model };
    if (model === null)
      return {
        ...result,
        ok: false,
        status: null,
        latency_ms: 0,
        message: `${named}: it has no chat model to try. Add a model to the connection.`,
      };
    const target = await this.targets.connectionTarget(workspaceId, connectionId, model, schema);
    // The test's own deadline (below) ends it first, with its own words.
    target.timeoutMs = CONNECTION_TEST_TIMEOUT_MS + 1_000;
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const request = { id: 'connection-test', method: 'POST', url, headers: {}, ip: '' };
    const caller: Caller = { left: false };
    let late = false;
    const deadline = setTimeout(() => {
      late = true;
      caller.call?.abort();
    }, CONNECTION_TEST_TIMEOUT_MS);
    try {
      const { answer, done } = await this.sender.first(
        { targets: [target], fallbackAt: 1 },
        () => JSON.stringify(tinyCall(schema, model)),
        request,
        caller,
      );
      try {
        const status = answer.statusCode;
        if (status >= 200 && status < 300) {
          await answer.dump();
          return {
            ...result,
            ok: true,
            status,
            latency_ms: elapsed(),
            message: `${named} answered (model ${model}, HTTP ${status}, ${elapsed()} ms).`,
          };
        }
        const body = (await answer.text().catch(() => '')).slice(0, REFUSAL_BYTES);
        return {
          ...result,
          ok: false,
          status,
          latency_ms: elapsed(),
          message: `${named} refused the call with HTTP ${status}: ${refusalWords(body)}. ${refusalHint(status)}`,
        };
      } finally {
        done();
      }
    } catch (error) {
      return {
        ...result,
        ok: false,
        status: null,
        latency_ms: elapsed(),
        message: late
          ? `${named} did not answer within ${CONNECTION_TEST_TIMEOUT_MS / 1000} s. Check the base URL.`
          : `${named} could not be reached: ${networkFailure(error)}. Check the base URL.`,
      };
    } finally {
      clearTimeout(deadline);
    }
  }
}
