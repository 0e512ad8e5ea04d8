import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, GetPromptResult, Prompt, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { withDeadline } from '@/common/deadline';
import { refusedAddress } from '@/common/net/outbound-http';
import { mcpServerProblem, McpServerConfig } from '../location-config/mcp-config';
import { EnvLookup, resolveEnv } from './mcp-env';
import { McpOAuthProvider } from './mcp-oauth-provider';
import { McpOAuthStore } from './mcp-oauth.store';
import { localTransport, RemoteKind, remoteTransport } from './mcp-transport';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, McpStatus } from './mcp.types';

/** How much of a local server's stderr a failure quotes. */
const STDERR_TAIL = 1_000;

class McpTimeoutError extends Error {}

/**
 * One configured MCP server of a location: started (a process, or a connection through the outbound guard),
 * its tools and prompts listed, its status kept. Whatever goes wrong is its status (`failed` with the reason),
 * never an exception for the session or the location.
 */
export class McpConnection {
  status: McpStatus;
  tools: Tool[] = [];
  prompts: Prompt[] = [];
  private client?: Client;
  private stderr = '';
  private closing = false;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly directory: string,
    readonly fetch: FetchLike,
    /** Where `{env:NAME}` is read (the environment, or a signed-in console's token). */
    readonly env: EnvLookup = (name) => process.env[name],
    /** Where OAuth tokens are kept; a remote server without `"oauth": false` uses them. */
    private readonly oauth?: McpOAuthStore,
  ) {
    this.status =
      config.enabled === false ? { status: 'disabled' } : { status: 'failed', error: 'not started' };
  }

  get connectTimeout(): number {
    return this.config.timeout ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  get callTimeout(): number {
    return this.config.timeout ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  /** Connects and lists tools and prompts within the server's timeout; the outcome is `status`. */
  async start(): Promise<McpStatus> {
    const problem = mcpServerProblem(this.config);
    if (problem) return (this.status = { status: 'failed', error: problem });
    this.closing = false;
    this.stderr = '';
    try {
      const timeout = this.connectTimeout;
      const expired = () => new McpTimeoutError(`did not answer within ${timeout} ms`);
      await withDeadline(this.connect(), timeout, expired);
      this.status = { status: 'connected' };
    } catch (error) {
      await this.close();
      this.status = this.failure(error);
    }
    return this.status;
  }

  async callTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    if (!this.client || this.status.status !== 'connected') {
      throw new Error(`The MCP server ${this.name} is not connected`);
    }
    const options = { signal, timeout: this.callTimeout };
    return (await this.client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    if (!this.client || this.status.status !== 'connected') {
      throw new Error(`The MCP server ${this.name} is not connected`);
    }
    return this.client.getPrompt({ name, arguments: args }, { timeout: this.callTimeout });
  }

  /** Stops the server (its process, or the connection); `status` is left to the caller. */
  async close(): Promise<void> {
    this.closing = true;
    const client = this.client;
    this.client = undefined;
    this.tools = [];
    this.prompts = [];
    await client?.close().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const config = resolveEnv(this.config, this.env);
    if (config.type === 'local') {
      const transport = localTransport(config, this.directory);
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
      await this.open(transport);
    } else {
      await this.openRemote(config);
    }
    await this.list();
  }

  /** The OAuth client of a remote server (its tokens in the data folder), unless its config says `"oauth": false`. */
  oauthProvider(url: string): McpOAuthProvider | undefined {
    if (!this.oauth || this.config.oauth === false) return undefined;
    return new McpOAuthProvider(url, this.config, this.oauth);
  }

  /** Streamable HTTP, else SSE (older servers); a refusal by the guard or a demand for OAuth is not retried. */
  private async openRemote(config: McpServerConfig): Promise<void> {
    const kinds: RemoteKind[] = ['streamable-http', 'sse'];
    const auth = this.oauthProvider(config.url!);
    // The headers are read again for each request, so a token that is refreshed (a console's) is sent as it is now.
    const fetch: FetchLike = (url, init) => {
      const headers = new Headers(init?.headers);
      const now = resolveEnv({ headers: this.config.headers }, this.env).headers ?? {};
      for (const [name, value] of Object.entries(now)) headers.set(name, value);
      return this.fetch(url, { ...init, headers });
    };
    let first: unknown;
    for (const kind of kinds) {
      try {
        return await this.open(remoteTransport({ ...config, headers: undefined }, kind, fetch, auth));
      } catch (error) {
        if (refusedAddress(error) || error instanceof UnauthorizedError || error instanceof McpTimeoutError)
          throw error;
        first ??= error;
      }
    }
    throw first;
  }

  private async open(transport: Transport): Promise<void> {
    const client = new Client({ name: 'outpost', version: '1.0.0' });
    client.onclose = () => {
      if (this.client !== client || this.closing) return;
      this.client = undefined;
      this.tools = [];
      this.prompts = [];
      const why = this.stderr.trim() ? `: ${lastLine(this.stderr)}` : '';
      this.status = { status: 'failed', error: `the server closed the connection${why}` };
    };
    try {
      await client.connect(transport, { timeout: this.connectTimeout });
    } catch (error) {
      // A transport that failed to start may still hold a stream or a retry timer (SSE's EventSource).
      await transport.close().catch(() => undefined);
      throw error;
    }
    if (this.closing) {
      // Stopped (a reload, a disconnect) while it was connecting.
      await client.close().catch(() => undefined);
      throw new Error('stopped while connecting');
    }
    this.client = client;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (this.client === client) this.tools = (await client.listTools()).tools;
    });
  }

  private async list(): Promise<void> {
    const client = this.client!;
    const options = { timeout: this.connectTimeout };
    this.tools = (await client.listTools(undefined, options)).tools;
    this.prompts = client.getServerCapabilities()?.prompts
      ? (await client.listPrompts(undefined, options)).prompts
      : [];
  }

  private failure(error: unknown): McpStatus {
    if (error instanceof UnauthorizedError || /\b401\b/.test(String(error))) {
      if (this.config.oauth !== false) return { status: 'needs_auth' };
    }
    const refused = refusedAddress(error);
    if (refused) return { status: 'failed', error: refused.message };
    const spawn = error as NodeJS.ErrnoException;
    let reason = spawn.code === 'ENOENT' ? `command not found: ${this.config.command?.[0]}` : message(error);
    if (this.stderr.trim()) reason += ` (stderr: ${lastLine(this.stderr)})`;
    return { status: 'failed', error: reason };
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1].trim();
}
