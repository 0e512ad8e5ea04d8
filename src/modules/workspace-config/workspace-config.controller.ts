import { Body, Controller, Get, Headers, Param, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { actorOf } from '../console-access/actor';
import { AllowInferenceKeys, OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { WorkspaceConfigDto } from './dto/workspace-config.dto';
import { RenderedConfig, WorkspaceConfigService } from './workspace-config.service';
import { HttpReply, HttpRequest, requestOrigin } from '@/common/http/http';
import { BodyLimit } from '@/common/http/body-parsers';
import { cliConfig } from './cli-config';

/** `"a", W/"b"` → `["\"a\"", "\"b\""]`: the strong forms of the tags a client already holds. */
function knownTags(ifNoneMatch: string | undefined): string[] {
  if (!ifNoneMatch) return [];
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter((tag) => tag.length > 0 && tag.length <= 64);
}

function send(res: HttpReply, config: RenderedConfig): void {
  res.header('ETag', config.etag);
  res.header('Cache-Control', 'private, no-cache');
  if (config.body === null) void res.status(304).send();
  else void res.status(200).type('application/json').send(config.body);
}

@ApiTags('console: workspace config')
@Controller('console/api')
export class WorkspaceConfigController {
  constructor(private readonly config: WorkspaceConfigService) {}

  @Get('v2/config')
  @AllowInferenceKeys()
  @OrgRole('member')
  @ApiOperation({
    operationId: 'config.get',
    summary: 'The workspace config (V2): providers, web search, MCP, policies; ETag and If-None-Match',
  })
  @ApiOkResponse({ type: WorkspaceConfigDto })
  @ApiResponse({ status: 304, description: 'unchanged since the ETag in If-None-Match' })
  @ApiErrorResponse(401, 'Unauthorized', 'missing, invalid, expired or revoked credential')
  async get(
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Req() request: HttpRequest,
    @Res() res: HttpReply,
  ): Promise<void> {
    const tags = knownTags(ifNoneMatch);
    const known = tags.includes('*') ? [] : tags;
    send(res, await this.config.read(principal.workspaceId!, known, requestOrigin(request)));
  }

  /**
   * What opencode's released CLI (1.18) loads after `opencode console login`: `GET {console}/api/config` with its
   * device token and `x-org-id`, read as `{ config }`, an opencode config merged into its own. The workspace's
   * providers become its `provider` map (loader package → `npm`, settings and headers → `options`); the policies
   * ride along as `experimental.policies`. Same credentials and ETag rules as `/api/v2/config`.
   */
  @Get('config')
  @AllowInferenceKeys()
  @OrgRole('member')
  @ApiOperation({
    operationId: 'config.getLegacy',
    summary: "The workspace config in the shape opencode's released CLI reads: { config: { provider, … } }",
  })
  @ApiOkResponse({
    description: 'An opencode config: `provider` map, `experimental.policies`',
    schema: {
      type: 'object',
      required: ['config'],
      properties: { config: { type: 'object', additionalProperties: true } },
    },
  })
  @ApiResponse({ status: 304, description: 'unchanged since the ETag in If-None-Match' })
  @ApiErrorResponse(401, 'Unauthorized', 'missing, invalid, expired or revoked credential')
  async getForCli(
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Req() request: HttpRequest,
    @Res() res: HttpReply,
  ): Promise<void> {
    const current = await this.config.read(principal.workspaceId!, [], requestOrigin(request));
    const etag = current.etag.replace(/"$/, '-cli"');
    const tags = knownTags(ifNoneMatch);
    const unchanged = tags.includes(etag) || tags.includes('*');
    send(res, {
      etag,
      body: unchanged ? null : JSON.stringify({ config: cliConfig(JSON.parse(current.body!)) }),
    });
  }

  @Put('orgs/:org/config')
  @BodyLimit(1024 * 1024)
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'config.update',
    summary: 'Change the workspace config (owners and admins; an All key: policies, websearch, mcp only)',
  })
  @ApiBody({ type: WorkspaceConfigDto })
  @ApiOkResponse({ type: WorkspaceConfigDto })
  @ApiErrorResponse(400, 'InvalidRequestError', 'the field that failed validation')
  async update(
    @Param('org') org: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() res: HttpReply,
  ): Promise<void> {
    send(res, await this.config.update(principal, actorOf(principal), org, body, requestOrigin(request)));
  }
}
