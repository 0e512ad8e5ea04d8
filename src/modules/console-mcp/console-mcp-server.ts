import { Injectable, Logger } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { TaggedError } from '@/common/errors';
import { PlainRequest } from '@/common/http/http';
import { microCentsToUsd } from '@/common/money';
import { numberedResults } from '@/common/web-search/web-search';
import { BudgetsService, Headroom } from '../budgets/budgets.service';
import { KeyBudgets } from '../budgets/key-budgets';
import { ConsolePrincipal } from '../console-access/console-principal';
import { GatewayTargets, OfferedModel } from '../inference/gateway-targets';
import { SearchGateway } from '../inference/search-gateway';
import { WorkspaceConfigService } from '../workspace-config/workspace-config.service';
import { MODELS_TOOL, noArguments, searchArguments, USAGE_TOOL, WEBSEARCH_TOOL } from './console-mcp-tools';

const usd = (microCents: bigint | null) => (microCents === null ? null : microCentsToUsd(microCents));

function answer(structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  };
}

function failed(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The console's own MCP server for one request (stateless: a server per request, as the SDK allows), acting as the
 * caller: `websearch` through the gateway's metered search (listed only while the workspace enables web search),
 * `workspace_usage` from the budgets, `workspace_models` from the gateway's own list for the caller's key.
 */
@Injectable()
export class ConsoleMcpServer {
  private readonly logger = new Logger(ConsoleMcpServer.name);

  constructor(
    private readonly search: SearchGateway,
    private readonly targets: GatewayTargets,
    private readonly budgets: BudgetsService,
    private readonly keyBudgets: KeyBudgets,
    private readonly workspaceConfig: WorkspaceConfigService,
  ) {}

  create(principal: ConsolePrincipal, request: PlainRequest): Server {
    const server = new Server(
      { name: 'outpost-console', title: 'Outpost console', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const searching = await this.workspaceConfig.websearch(principal.workspaceId!);
      return { tools: [...(searching ? [WEBSEARCH_TOOL] : []), USAGE_TOOL, MODELS_TOOL] };
    });
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      switch (params.name) {
        case WEBSEARCH_TOOL.name: {
          const { query, max } = searchArguments(params.arguments);
          return this.websearch(principal, request, query, max);
        }
        case USAGE_TOOL.name:
          noArguments(params.arguments);
          return answer(await this.usage(principal));
        case MODELS_TOOL.name:
          noArguments(params.arguments);
          return answer({ models: await this.models(principal) });
        default:
          throw new McpError(ErrorCode.InvalidParams, `name: no tool ${JSON.stringify(params.name)}`);
      }
    });
    return server;
  }

  /** One search, billed and logged like `POST /inference/v1/search`; a refusal is the tool's error, in its words. */
  private async websearch(
    principal: ConsolePrincipal,
    request: PlainRequest,
    query: string,
    max: number,
  ): Promise<CallToolResult> {
    try {
      const results = await this.search.search(principal, request, query, max);
      return { content: [{ type: 'text', text: numberedResults(query, results) }] };
    } catch (error) {
      if (error instanceof TaggedError)
        return failed(`The search failed (${error.status}): ${error.message}`);
      this.logger.error(`websearch through the console MCP server: ${(error as Error).stack ?? error}`);
      return failed('The search failed: the console met an unexpected error');
    }
  }

  /** This UTC month: what the caller spent, the budgets that apply, and what the tightest of them has left. */
  private async usage(principal: ConsolePrincipal): Promise<Record<string, unknown>> {
    const workspaceId = principal.workspaceId!;
    const memberId = principal.serviceAccountId ?? principal.userId!;
    const keyLimit = principal.controls?.monthlyBudgetMicroCents ?? null;
    const [member, workspace, memberRoom, keyRoom] = await Promise.all([
      this.budgets.status(workspaceId, memberId),
      this.budgets.workspaceStatus(workspaceId),
      this.budgets.headroom(workspaceId, memberId),
      keyLimit === null ? null : this.keyBudgets.headroom(workspaceId, principal.credentialId, keyLimit),
    ]);
    const tightest: Headroom | null =
      memberRoom && keyRoom
        ? keyRoom.left < memberRoom.left
          ? keyRoom
          : memberRoom
        : (memberRoom ?? keyRoom);
    return {
      currency: 'USD',
      month_resets_at: member.resetsAt.toISOString(),
      spent: usd(member.spentMicroCents),
      budget: usd(member.limitMicroCents),
      budget_source: member.source,
      ...(keyRoom ? { key_budget: usd(keyRoom.limit), key_left: usd(keyRoom.left) } : {}),
      workspace_spent: usd(workspace.spentMicroCents),
      workspace_budget: usd(workspace.limitMicroCents),
      remaining: tightest ? usd(tightest.left < 0n ? 0n : tightest.left) : null,
      remaining_limited_by: tightest?.by ?? null,
    };
  }

  /** The gateway's models and routes the workspace allows, narrowed to the key's `allowed_models` when it has any. */
  private async models(principal: ConsolePrincipal): Promise<Array<Record<string, unknown>>> {
    const allowed = principal.controls?.allowedModels ?? null;
    const models = await this.targets.modelsOf(principal.workspaceId!);
    return models.filter((model) => !allowed || allowed.includes(model.id)).map(shown);
  }
}

/** A model as the tool shows it: prices in USD per million tokens. */
function shown(model: OfferedModel): Record<string, unknown> {
  return {
    id: model.id,
    provider: model.provider,
    ...(model.name ? { name: model.name } : {}),
    ...(model.kind ? { kind: model.kind } : {}),
    ...(model.serves ? { serves: model.serves } : {}),
    prices_per_million_tokens: model.prices
      ? {
          input: microCentsToUsd(model.prices.input),
          output: microCentsToUsd(model.prices.output),
          cache_read: microCentsToUsd(model.prices.cacheRead),
          cache_write: microCentsToUsd(model.prices.cacheWrite),
        }
      : null,
  };
}
