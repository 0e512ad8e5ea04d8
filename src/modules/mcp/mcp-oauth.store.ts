import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { writePrivateFile } from '@/common/fs/private-file';

/** `$OUTPOST_DATA_DIR/mcp-auth.json` (mode 0600): per server URL, what its OAuth flow left. */
export const MCP_AUTH_FILE = 'mcp-auth.json';

/** One server's OAuth state: the registered client, the tokens, and the flow in progress. */
export interface McpAuthEntry {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  state?: string;
}

/**
 * What OAuth gave each remote MCP server, by its URL (the same server configured in two locations shares it),
 * kept out of every config file. Read and written whole on each change: entries are few and small.
 */
export class McpOAuthStore {
  constructor(private readonly dataDir: string) {}

  get(url: string): McpAuthEntry {
    return this.read()[url] ?? {};
  }

  update(url: string, change: Partial<McpAuthEntry>): void {
    const all = this.read();
    all[url] = { ...all[url], ...change };
    this.write(all);
  }

  remove(url: string): void {
    const all = this.read();
    delete all[url];
    this.write(all);
  }

  private read(): Record<string, McpAuthEntry> {
    const file = join(this.dataDir, MCP_AUTH_FILE);
    if (!existsSync(file)) return {};
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, McpAuthEntry>) : {};
    } catch {
      return {};
    }
  }

  private write(all: Record<string, McpAuthEntry>): void {
    writePrivateFile(join(this.dataDir, MCP_AUTH_FILE), `${JSON.stringify(all, null, 2)}\n`);
  }
}
