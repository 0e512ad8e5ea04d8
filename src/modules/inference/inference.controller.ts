import { applyDecorators, Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Public } from '@/common/auth';
import { BodyLimit } from '@/common/http/body-parsers';
import { HttpReply, HttpRequest } from '@/common/http/http';
import { AllowInferenceKeys, OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { ConsoleAuthenticator } from '../console-access/console.authenticator';
import { GatewayModelDto, GatewayModelListDto } from './dto/gateway-models.dto';
import { ModelNotFoundError } from './gateway.errors';
import { GatewayService } from './gateway.service';
import { GatewayTargets } from './gateway-targets';
import { INFERENCE_BODY_LIMIT, InferenceLane, useKeyHeader } from './inference-lane';

/**
 * A forwarded model call: inference keys and members allowed, the large body limit, and the request and answer in
 * the provider API's own shapes, passed through.
 */
const ModelCall = (api: string, operationId: string, summary: string) =>
  applyDecorators(
    AllowInferenceKeys(),
    OrgRole('member'),
    BodyLimit(INFERENCE_BODY_LIMIT),
    ApiOperation({ operationId, summary }),
    ApiBody({
      description: `A ${api} request body; \`model\` names a model the workspace may use`,
      schema: {
        type: 'object',
        required: ['model'],
        properties: { model: { type: 'string' }, stream: { type: 'boolean' } },
        additionalProperties: true,
      },
    }),
    ApiOkResponse({
      description: `The ${api} answer, or its event stream when \`stream\` is true`,
      content: {
        'application/json': { schema: { type: 'object', additionalProperties: true } },
        'text/event-stream': { schema: { type: 'string' } },
      },
    }),
  );

/**
 * The gateway's routes in the API document. On the server Outpost starts, model calls with a key are answered
 * before Fastify by the same code (`InferenceLane`); these handlers serve the rest (a call without a key gets its
 * 401 here) and any app made without the lanes.
 */
@ApiTags('inference')
@Controller('inference')
export class InferenceController {
  constructor(
    private readonly gateway: GatewayService,
    private readonly targets: GatewayTargets,
    private readonly lane: InferenceLane,
    private readonly authenticator: ConsoleAuthenticator,
  ) {}

  @Post('openai/v1/chat/completions')
  @ModelCall(
    'OpenAI chat completions',
    'inference.chatCompletions',
    'OpenAI-compatible chat completions, streamed or not',
  )
  async chat(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    await this.lane.answer({ schema: 'openai-chat', body, principal, request }, reply.raw);
  }

  @Post('openai/v1/responses')
  @ModelCall('OpenAI Responses', 'inference.responses', 'OpenAI-compatible Responses API, streamed or not')
  async responses(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    await this.lane.answer({ schema: 'openai-responses', body, principal, request }, reply.raw);
  }

  @Post('anthropic/v1/messages')
  @ModelCall('Anthropic messages', 'inference.messages', 'Anthropic-compatible messages, streamed or not')
  async messages(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    await this.lane.answer({ schema: 'anthropic', body, principal, request }, reply.raw);
  }

  @Post('openai/v1/embeddings')
  @ModelCall(
    'OpenAI embeddings',
    'inference.embeddings',
    'OpenAI-compatible embeddings, metered on input tokens',
  )
  embeddings(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer({ schema: 'openai-embeddings', body, principal, request }, reply.raw);
  }

  @Post('openai/v1/completions')
  @ModelCall(
    'OpenAI completions',
    'inference.completions',
    'OpenAI-compatible (legacy) completions, streamed or not',
  )
  completions(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer({ schema: 'openai-completions', body, principal, request }, reply.raw);
  }

  @Post('anthropic/v1/messages/count_tokens')
  @ModelCall(
    'Anthropic token count',
    'inference.countTokens',
    "The input tokens of a messages request, by the provider's count",
  )
  countTokens(
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer({ schema: 'anthropic-count-tokens', body, principal, request }, reply.raw);
  }

  @Post('custom/:connection/chat/completions')
  @ModelCall(
    'OpenAI chat completions',
    'inference.custom.chatCompletions',
    "A workspace connection (bring your own key), forwarded with the connection's own credential",
  )
  customChat(
    @Param('connection') connection: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer({ schema: 'openai-chat', connection, body, principal, request }, reply.raw);
  }

  @Post('custom/:connection/responses')
  @ModelCall(
    'OpenAI Responses',
    'inference.custom.responses',
    "A workspace connection (bring your own key), forwarded with the connection's own credential",
  )
  customResponses(
    @Param('connection') connection: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer({ schema: 'openai-responses', connection, body, principal, request }, reply.raw);
  }

  @Post('custom/:connection/messages')
  @ModelCall(
    'Anthropic messages',
    'inference.custom.messages',
    "A workspace connection (bring your own key), forwarded with the connection's own credential",
  )
  customMessages(
    @Param('connection') connection: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer({ schema: 'anthropic', connection, body, principal, request }, reply.raw);
  }

  @Post('custom/:connection/embeddings')
  @ModelCall('OpenAI embeddings', 'inference.custom.embeddings', 'Embeddings of a workspace connection')
  customEmbeddings(
    @Param('connection') connection: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer({ schema: 'openai-embeddings', connection, body, principal, request }, reply.raw);
  }

  @Post('custom/:connection/completions')
  @ModelCall('OpenAI completions', 'inference.custom.completions', 'Completions of a workspace connection')
  customCompletions(
    @Param('connection') connection: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer(
      { schema: 'openai-completions', connection, body, principal, request },
      reply.raw,
    );
  }

  @Post('custom/:connection/messages/count_tokens')
  @ModelCall(
    'Anthropic token count',
    'inference.custom.countTokens',
    'Token counts of a workspace connection',
  )
  customCountTokens(
    @Param('connection') connection: string,
    @Body() body: Record<string, unknown>,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
    @Res() reply: HttpReply,
  ): Promise<void> {
    return this.lane.answer(
      { schema: 'anthropic-count-tokens', connection, body, principal, request },
      reply.raw,
    );
  }

  @Get('v1/models')
  @Public()
  @ApiOperation({
    operationId: 'inference.models',
    summary:
      "The gateway's models in OpenAI's list shape; with a key, what the key's workspace may use (policies applied, its connections' models added)",
  })
  @ApiOkResponse({ type: GatewayModelListDto })
  models(@Req() request: HttpRequest): Promise<GatewayModelListDto> {
    return this.modelList(request);
  }

  @Get('openai/v1/models')
  @Public()
  @ApiOperation({ operationId: 'inference.openai.models', summary: 'The same list under the OpenAI prefix' })
  @ApiOkResponse({ type: GatewayModelListDto })
  openaiModels(@Req() request: HttpRequest): Promise<GatewayModelListDto> {
    return this.modelList(request);
  }

  @Get('openai/v1/models/:model')
  @Public()
  @ApiOperation({
    operationId: 'inference.openai.model',
    summary: 'One model of the list (a `<provider>/<model>` id is %-encoded: `up%2Fsmall`)',
  })
  @ApiOkResponse({ type: GatewayModelDto })
  async openaiModel(@Param('model') id: string, @Req() request: HttpRequest): Promise<GatewayModelDto> {
    return modelOf((await this.modelList(request)).data, id);
  }

  @Get('anthropic/v1/models')
  @Public()
  @ApiOperation({ operationId: 'inference.anthropic.models', summary: "The same list in Anthropic's shape" })
  @ApiOkResponse({ type: GatewayModelListDto })
  anthropicModels(@Req() request: HttpRequest): Promise<GatewayModelListDto> {
    return this.modelList(request);
  }

  @Get('anthropic/v1/models/:model')
  @Public()
  @ApiOperation({ operationId: 'inference.anthropic.model', summary: "One model, in Anthropic's shape" })
  @ApiOkResponse({ type: GatewayModelDto })
  async anthropicModel(@Param('model') id: string, @Req() request: HttpRequest): Promise<GatewayModelDto> {
    return modelOf((await this.modelList(request)).data, id);
  }

  @Get('custom/:connection/models')
  @Public()
  @ApiOperation({
    operationId: 'inference.custom.models',
    summary:
      "A workspace connection's models, by the ids its routes take (a key of the workspace is required)",
  })
  @ApiOkResponse({ type: GatewayModelListDto })
  async connectionModels(
    @Param('connection') connection: string,
    @Req() request: HttpRequest,
  ): Promise<GatewayModelListDto> {
    useKeyHeader(request.headers);
    const principal = await this.authenticator.authenticateModelCaller(request);
    const models = await this.targets.connectionModels(principal.workspaceId!, connection);
    return listOf(models);
  }

  private async modelList(request: HttpRequest): Promise<GatewayModelListDto> {
    const models = useKeyHeader(request.headers)
      ? await this.targets.modelsOf((await this.authenticator.authenticateModelCaller(request)).workspaceId!)
      : this.targets.listed();
    return listOf(models);
  }
}

/** One model of a list by its id (or by its bare id: the first provider's), else the 404 the SDKs expect. */
function modelOf(models: GatewayModelDto[], id: string): GatewayModelDto {
  const model =
    models.find((candidate) => candidate.id === id) ??
    models.find((candidate) => candidate.id.endsWith(`/${id}`));
  if (!model) throw new ModelNotFoundError(id);
  return model;
}

/** Models in OpenAI's list shape, with the members Anthropic's SDK reads too. */
function listOf(models: Array<{ id: string; provider: string; name?: string }>): GatewayModelListDto {
  return {
    object: 'list',
    has_more: false,
    first_id: models[0]?.id ?? null,
    last_id: models.at(-1)?.id ?? null,
    data: models.map((model) => ({
      id: model.id,
      object: 'model',
      type: 'model',
      created: 0,
      created_at: new Date(0).toISOString(),
      display_name: model.name ?? model.id,
      owned_by: model.provider,
    })),
  };
}
