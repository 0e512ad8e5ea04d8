import { Body, Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Public } from '../../common/auth';
import { BodyLimit } from '../../common/http/body-parsers';
import { HttpReply, HttpRequest } from '../../common/http/http';
import { AllowInferenceKeys, OrgRole } from '../keys/access/console-access.decorators';
import { ConsolePrincipal } from '../keys/access/console-principal';
import { ConsoleAuthenticator } from '../keys/access/console.authenticator';
import { GatewayService } from './gateway.service';
import { InferenceErrorFilter } from './inference-error.filter';

/** Model requests carry whole conversations and images; only an authenticated caller gets past 64 KiB. */
const INFERENCE_BODY_LIMIT = 10 * 1024 * 1024;

@ApiTags('inference')
@Controller('inference')
@UseFilters(InferenceErrorFilter)
export class InferenceController {
  constructor(
    private readonly gateway: GatewayService,
    private readonly authenticator: ConsoleAuthenticator,
  ) {}

  @Post('openai/v1/chat/completions')
  @AllowInferenceKeys()
  @OrgRole('member')
  @BodyLimit(INFERENCE_BODY_LIMIT)
  @ApiOperation({
    operationId: 'inference.chatCompletions',
    summary: 'OpenAI-compatible chat completions, streamed or not',
  })
  async chat(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    await this.gateway.handle('openai-chat', body, principal, request, reply);
  }

  @Post('openai/v1/responses')
  @AllowInferenceKeys()
  @OrgRole('member')
  @BodyLimit(INFERENCE_BODY_LIMIT)
  @ApiOperation({
    operationId: 'inference.responses',
    summary: 'OpenAI-compatible Responses API, streamed or not',
  })
  async responses(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    await this.gateway.handle('openai-responses', body, principal, request, reply);
  }

  @Post('anthropic/v1/messages')
  @AllowInferenceKeys()
  @OrgRole('member')
  @BodyLimit(INFERENCE_BODY_LIMIT)
  @ApiOperation({
    operationId: 'inference.messages',
    summary: 'Anthropic-compatible messages, streamed or not',
  })
  async messages(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    await this.gateway.handle('anthropic', body, principal, request, reply);
  }

  @Post([
    'custom/:connection/chat/completions',
    'custom/:connection/responses',
    'custom/:connection/messages',
  ])
  @AllowInferenceKeys()
  @OrgRole('member')
  @BodyLimit(INFERENCE_BODY_LIMIT)
  @ApiOperation({
    operationId: 'inference.custom',
    summary:
      "A workspace connection (bring your own key): /chat/completions, /responses or /messages, forwarded with the connection's own credential",
  })
  async custom(
    @Param('connection') connection: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    const path = request.url.split('?')[0];
    const schema = path.endsWith('/messages')
      ? 'anthropic'
      : path.endsWith('/responses')
        ? 'openai-responses'
        : 'openai-chat';
    await this.gateway.handle(schema, body, principal, request, reply, (model) =>
      this.gateway.connectionTarget(principal.workspaceId!, connection, model, schema),
    );
  }

  @Get(['v1/models', 'openai/v1/models'])
  @Public()
  @ApiOperation({
    operationId: 'inference.models',
    summary:
      "The gateway's models in OpenAI's list shape; with a key, what the key's workspace may use (policies applied, its connections' models added)",
  })
  async models(@Req() request: HttpRequest) {
    const models = request.headers.authorization
      ? await this.gateway.modelsOf((await this.authenticator.authenticateModelCaller(request)).workspaceId!)
      : this.gateway.models();
    return {
      object: 'list',
      data: models.map((model) => ({ id: model.id, object: 'model', created: 0, owned_by: model.provider })),
    };
  }
}
