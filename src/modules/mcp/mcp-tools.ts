import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ToolAbortedError, ToolError } from '../runtime/tools/tool.errors';
import { AnyTool, ToolResult } from '../runtime/tools/tool.types';
import type { McpConnection } from './mcp-connection';

/** opencode's names: what is not a letter, digit, `_` or `-` becomes `_`. */
export function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}

/** The tool error of a call the server answered with `isError`. */
export class McpToolError extends ToolError {
  override readonly type = 'McpToolError';
}

/**
 * One tool of a connected server as the model sees it: `<server>_<tool>`, the server's input schema, checked under
 * the permission rules as its own action (`"github_*": "ask"`).
 */
export function mcpTool(connection: McpConnection, tool: McpTool): AnyTool {
  const name = `${sanitize(connection.name)}_${sanitize(tool.name)}`;
  const run = async (input: Record<string, unknown>, ctx: { signal: AbortSignal }): Promise<ToolResult> => {
    let result: CallToolResult;
    try {
      result = await connection.callTool(tool.name, input, ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted) throw new ToolAbortedError();
      throw new ToolError(error instanceof Error ? error.message : String(error));
    }
    const output = resultText(result);
    if (result.isError) throw new McpToolError(output || `${name} failed`);
    return { output, title: name, metadata: { server: connection.name } };
  };
  return {
    name,
    action: name,
    description: tool.description ?? '',
    inputSchema: { ...tool.inputSchema, type: 'object' },
    foreignSchema: true,
    permissions: () => [{ action: name, resource: '*' }],
    run: run as AnyTool['run'],
  };
}

/** Text as it is, embedded resources by their text, images and audio as a note the model can read. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'image' || item.type === 'audio') {
      const size = Buffer.from(item.data, 'base64').length;
      parts.push(
        `[The tool returned ${item.type === 'image' ? 'an image' : 'audio'} (${item.mimeType}, ${size} bytes), not shown]`,
      );
    } else if (item.type === 'resource') {
      const resource = item.resource;
      parts.push(
        'text' in resource ? resource.text : `[Resource ${resource.uri} (${resource.mimeType ?? 'binary'})]`,
      );
    } else if (item.type === 'resource_link') parts.push(`[Resource ${item.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent) parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}

/** A prompt's command name, as opencode lists it: `<server>:<prompt>`. */
export function promptCommandName(server: string, prompt: string): string {
  return `${sanitize(server)}:${sanitize(prompt)}`;
}

/** One message of a prompt as text (a resource by its text). */
export function promptText(content: CallToolResult['content'][number]): string {
  return resultText({ content: [content] });
}
