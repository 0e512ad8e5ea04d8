import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { InvalidRequestError } from '@/common/errors';
import { OutboundHttp } from '@/common/net/outbound-http';
import { appConfig, AppConfig } from '@/config/app.config';
import { LocationConfigService } from '../location-config/location-config.service';
import { McpServerConfig, parseWholeMcpServer } from '../location-config/mcp-config';
import { LocationReloadService } from '../location-reload/location-reload.service';
import { ResolvedLocation } from '../locations/location.types';
import { AnyTool } from '../runtime/tools/tool.types';
import { McpConnection } from './mcp-connection';
import { McpServerNotFoundError } from './mcp.errors';
import { finishOAuth, removeOAuth, startOAuth } from './mcp-oauth-flow';
import { McpOAuthStore } from './mcp-oauth.store';
import { mcpTool, promptCommandName, promptText } from './mcp-tools';
import { McpStatus } from './mcp.types';

/** The servers of one location, and the start of those the config enables. */
interface LocationServers {
  connections: Map<string, McpConnection>;
  started: Promise<unknown>;
}

/** A prompt of a connected server, offered as a command (`<server>:<prompt>`). */
export interface McpPromptRef {
  command: string;
  description?: string;
  /**
   * The prompt's text with the arguments as `$1`, `$2`, … (in the prompt's order), for the command's
   * template to fill in as it does a file's.
   */
  template(): Promise<string>;
}

/**
 * The MCP servers of each location (opencode's `mcp` config), started when the location is first used and
 * stopped when it reloads: their statuses, their tools for the agent loop, their prompts as commands, and the
 * routes that add, connect and disconnect one. Remote servers are reached only through the outbound guard.
 */
@Injectable()
export class McpService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(McpService.name);
  private readonly byDirectory = new Map<string, Promise<LocationServers>>();
  private readonly fetch: FetchLike;
  private readonly oauth: McpOAuthStore;

  constructor(
    private readonly configs: LocationConfigService,
    private readonly reloads: LocationReloadService,
    outbound: OutboundHttp,
    @Inject(appConfig.KEY) app: AppConfig,
  ) {
    this.fetch = ((url, init) => outbound.fetch(url, init as never)) as FetchLike;
    this.oauth = new McpOAuthStore(app.dataDir);
  }

  onModuleInit(): void {
    this.reloads.onLocationShutdown((location) => this.stop(location.directory));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.byDirectory.keys()].map((directory) => this.stop(directory)));
  }

  /** Every server's status, once each has started or failed (each within its own timeout). */
  async status(location: ResolvedLocation): Promise<Record<string, McpStatus>> {
    const servers = await this.servers(location);
    await servers.started;
    return Object.fromEntries([...servers.connections].map(([name, c]) => [name, c.status]));
  }

  /** The tools of the connected servers, as the agent loop offers them. */
  async tools(location: ResolvedLocation): Promise<AnyTool[]> {
    const servers = await this.servers(location);
    await servers.started;
    return this.connected(servers).flatMap((c) => c.tools.map((tool) => mcpTool(c, tool)));
  }

  /** The prompts of the connected servers. */
  async prompts(location: ResolvedLocation): Promise<McpPromptRef[]> {
    const servers = await this.servers(location);
    await servers.started;
    return this.connected(servers).flatMap((connection) =>
      connection.prompts.map((prompt) => ({
        command: promptCommandName(connection.name, prompt.name),
        ...(prompt.description ? { description: prompt.description } : {}),
        template: async () => {
          const args = (prompt.arguments ?? []).map((argument, i) => [argument.name, `$${i + 1}`]);
          const result = await connection.getPrompt(prompt.name, Object.fromEntries(args));
          return result.messages.map((message) => promptText(message.content)).join('\n\n');
        },
      })),
    );
  }

  /** `POST /mcp`: adds (or replaces) a server of this location until it reloads, and starts it. */
  async add(location: ResolvedLocation, name: string, raw: unknown): Promise<Record<string, McpStatus>> {
    const parsed = parseWholeMcpServer(raw, 'config');
    if ('problem' in parsed) {
      const { path, message } = parsed.problem;
      throw new InvalidRequestError(`${path} ${message}`, path);
    }
    const { config } = parsed;
    const servers = await this.servers(location);
    await servers.connections.get(name)?.close();
    const connection = this.connection(location, name, config);
    servers.connections.set(name, connection);
    if (config.enabled !== false) await connection.start();
    return this.status(location);
  }

  /** `POST /mcp/{name}/connect`: (re)starts a configured server, whatever its `enabled`. */
  async connect(location: ResolvedLocation, name: string): Promise<McpStatus> {
    const connection = await this.find(location, name);
    await connection.close();
    return connection.start();
  }

  /** `POST /mcp/{name}/disconnect`: stops a server until it is connected again or the location reloads. */
  async disconnect(location: ResolvedLocation, name: string): Promise<void> {
    const connection = await this.find(location, name);
    await connection.close();
    connection.status = { status: 'disabled' };
  }

  /** `POST /mcp/{name}/auth`: starts the server's OAuth flow; the URL the person opens. */
  async startAuth(location: ResolvedLocation, name: string) {
    return startOAuth(await this.find(location, name));
  }

  /** `POST /mcp/{name}/auth/callback`: finishes the flow with the code, then connects the server again. */
  async finishAuth(location: ResolvedLocation, name: string, code: string): Promise<McpStatus> {
    const connection = await this.find(location, name);
    await finishOAuth(connection, code);
    await connection.close();
    return connection.start();
  }

  /** `DELETE /mcp/{name}/auth`: forgets the server's tokens and registered client, and disconnects it. */
  async removeAuth(location: ResolvedLocation, name: string): Promise<void> {
    const connection = await this.find(location, name);
    removeOAuth(connection);
    await connection.close();
    connection.status = { status: 'needs_auth' };
  }

  /** The server by name (404 when the location has none of that name). */
  async find(location: ResolvedLocation, name: string): Promise<McpConnection> {
    const servers = await this.servers(location);
    await servers.started;
    const connection = servers.connections.get(name);
    if (!connection) throw new McpServerNotFoundError(name);
    return connection;
  }

  private connected(servers: LocationServers): McpConnection[] {
    return [...servers.connections.values()].filter((c) => c.status.status === 'connected');
  }

  private servers(location: ResolvedLocation): Promise<LocationServers> {
    let servers = this.byDirectory.get(location.directory);
    if (!servers) {
      servers = this.load(location);
      this.byDirectory.set(location.directory, servers);
      servers.catch(() => this.byDirectory.delete(location.directory));
    }
    return servers;
  }

  private async load(location: ResolvedLocation): Promise<LocationServers> {
    const { merged } = await this.configs.get(location);
    const connections = new Map<string, McpConnection>();
    for (const [name, config] of Object.entries(merged.mcp)) {
      connections.set(name, this.connection(location, name, config));
    }
    const starting = [...connections.values()]
      .filter((c) => c.config.enabled !== false)
      .map(async (c) => {
        const status = await c.start();
        if (status.status === 'failed') this.logger.warn(`MCP server ${c.name} failed: ${status.error}`);
      });
    return { connections, started: Promise.allSettled(starting) };
  }

  private connection(location: ResolvedLocation, name: string, config: McpServerConfig): McpConnection {
    return new McpConnection(
      name,
      config,
      location.directory,
      this.fetch,
      (variable) => this.configs.env(variable),
      this.oauth,
    );
  }

  /** Stops every server of a directory; the next use starts them from the config as it is then. */
  private async stop(directory: string): Promise<void> {
    const servers = this.byDirectory.get(directory);
    this.byDirectory.delete(directory);
    if (!servers) return;
    const { connections } = await servers.catch(() => ({ connections: new Map<string, McpConnection>() }));
    await Promise.allSettled([...connections.values()].map((c) => c.close()));
  }
}
