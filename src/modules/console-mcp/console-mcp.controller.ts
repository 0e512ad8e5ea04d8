import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CurrentPrincipal } from '@/common/auth';
import { HttpReply, HttpRequest } from '@/common/http/http';
import { BodyLimit } from '@/common/http/body-parsers';
import { AllowInferenceKeys, OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { ConsoleMcpServer } from './console-mcp-server';

const NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'This server is stateless: send JSON-RPC messages with POST' },
  id: null,
};

/**
 * `/console/mcp`: the console's own MCP server over Streamable HTTP, stateless (each POST is answered by a
 * server made for it, in JSON), for the workspace's members with the credentials of `GET /console/api/v2/config`:
 * device tokens, user tokens with `x-org-id`, API keys (Inference-only ones too).
 */
@ApiTags('console: MCP server')
@Controller('console/mcp')
@AllowInferenceKeys()
@OrgRole('member')
export class ConsoleMcpController {
  constructor(private readonly server: ConsoleMcpServer) {}

  @Post()
  @BodyLimit(256 * 1024)
  @ApiOperation({
    operationId: 'console.mcp',
    summary:
      'MCP (Streamable HTTP, stateless) with the tools websearch (when the workspace enables it), workspace_usage and workspace_models',
  })
  @ApiBody({ description: 'A JSON-RPC message of the Model Context Protocol', schema: { type: 'object' } })
  @ApiOkResponse({
    description: 'The JSON-RPC answer (a notification is answered 202 with no body)',
    schema: { type: 'object' },
  })
  @ApiErrorResponse(401, 'Unauthorized', 'missing, invalid, expired or revoked credential')
  async post(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    const server = this.server.create(principal, request);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The transport writes the response itself: the headers set so far (security headers, request id) go with it.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
    }
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, body);
  }

  /** No stream to open (MCP's Streamable HTTP: a server without one answers GET with 405). */
  @Get()
  @HttpCode(405)
  @ApiExcludeEndpoint()
  stream(@Res({ passthrough: true }) reply: HttpReply): typeof NOT_ALLOWED {
    reply.header('allow', 'POST');
    return NOT_ALLOWED;
  }

  /** No session to end: the server is stateless. */
  @Delete()
  @HttpCode(405)
  @ApiExcludeEndpoint()
  end(@Res({ passthrough: true }) reply: HttpReply): typeof NOT_ALLOWED {
    reply.header('allow', 'POST');
    return NOT_ALLOWED;
  }
}
