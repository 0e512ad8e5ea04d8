import { Injectable } from '@nestjs/common';
import { PlainRequest } from '@/common/http/http';
import { gatewayCost, gatewayRequests } from '@/common/metrics/metrics';
import { OutboundHttp } from '@/common/net/outbound-http';
import { searchWeb, WebSearchError } from '@/common/web-search/web-search';
import { SearchResult } from '@/common/web-search/web-search.types';
import { RequestLog } from '../budgets/request-log';
import { UsageLedger } from '../budgets/usage-ledger';
import { ConsolePrincipal } from '../console-access/console-principal';
import { searchModel } from '../connections/search-provider-view';
import { GatewaySearchProvider, SearchProvidersService } from '../connections/search-providers.service';
import { WorkspaceConfigService } from '../workspace-config/workspace-config.service';
import { WorkspacePolicies } from '../workspace-config/workspace-policies';
import { CallBudgets } from './call-budgets';
import { CallMeter } from './call-meter';
import { newCallRecord, refusedWith, requestLogEntry, writtenDown } from './call-record';
import { CatalogueModel } from './gateway.config';
import { ModelError, SearchNotEnabledError, UpstreamError } from './gateway.errors';
import { KeyLimits } from './key-limits';
import { costOf, NO_USAGE } from './usage';

/** The provider id policies and the metrics see for every search provider. */
const SEARCH_PROVIDER = 'search';
/** One search is one unit of "input", priced per million units like tokens. */
const ONE_SEARCH = { ...NO_USAGE, input: 1 };

/**
 * A search provider as the budgets see a model: one search is one input unit, priced at the provider's price per
 * 1,000 searches (micro-cents per million units = per 1,000 × 1,000), no output.
 */
function pricedAsModel(provider: GatewaySearchProvider): CatalogueModel {
  return {
    id: searchModel(provider.id),
    provider: SEARCH_PROVIDER,
    upstreamId: provider.target.kind,
    prices: { input: provider.pricePer1000MicroCents * 1000n, output: 0n, cacheRead: 0n, cacheWrite: 0n },
    maxOutput: 0,
  };
}

/**
 * `POST /inference/v1/search`: one web search through the workspace's search provider (the config's
 * `websearch.providerID`), as a gateway call: the key's `allowed_models` must name `search/<id>` (when it has any),
 * the workspace's policies must allow it, its price is held against the key's, the member's and the workspace's
 * budgets and billed on the same ledger as model calls, and it has its request log row.
 */
@Injectable()
export class SearchGateway {
  constructor(
    private readonly workspaceConfig: WorkspaceConfigService,
    private readonly providers: SearchProvidersService,
    private readonly policies: WorkspacePolicies,
    private readonly keyLimits: KeyLimits,
    private readonly callBudgets: CallBudgets,
    private readonly ledger: UsageLedger,
    private readonly requestLog: RequestLog,
    private readonly http: OutboundHttp,
  ) {}

  async search(
    principal: ConsolePrincipal,
    request: PlainRequest,
    query: string,
    max: number,
  ): Promise<SearchResult[]> {
    const started = performance.now();
    const record = newCallRecord();
    const call = { principal, request, body: { model: SEARCH_PROVIDER } };
    try {
      const workspaceId = principal.workspaceId!;
      const enabled = await this.workspaceConfig.websearch(workspaceId);
      if (!enabled) throw new SearchNotEnabledError();
      const model = searchModel(enabled.providerID);
      call.body.model = model;
      const provider = await this.providers.forGateway(workspaceId, enabled.providerID);
      await this.keyLimits.admit(principal, [model]);
      if (!(await this.policies.allows(workspaceId, SEARCH_PROVIDER, model))) throw new ModelError(model);
      const priced = pricedAsModel(provider);
      const held = await this.callBudgets.hold(principal, priced, 0, 1, {
        maxTokens: undefined,
        pays: 'input',
      });
      const meter = new CallMeter(
        priced,
        {
          workspaceId,
          memberId: principal.serviceAccountId ?? principal.userId!,
          keyId: principal.credential === 'session' ? null : principal.credentialId,
          model,
        },
        held.holds,
      );
      const results = await this.ask(provider, query, max).catch((error: unknown) => {
        this.ledger.settle(meter.final(NO_USAGE, 0n));
        throw error;
      });
      const cost = costOf(priced, ONE_SEARCH);
      Object.assign(record, { status: 200, outcome: 'answered', cost, servedBy: model });
      record.ttfbMs = Math.round(performance.now() - started);
      this.ledger.settle(meter.final(NO_USAGE, cost));
      record.logged = true;
      this.requestLog.add(requestLogEntry(call, record, started));
      await writtenDown(this.ledger, this.requestLog, meter.budgeted);
      return results;
    } catch (error) {
      refusedWith(record, error);
      throw error;
    } finally {
      if (!record.logged) this.requestLog.add(requestLogEntry(call, record, started));
      // In the gateway's metrics as a call of its own schema, `search`, like the model calls' outcomes and costs.
      gatewayRequests.add({ schema: 'search', model: call.body.model, outcome: record.outcome });
      if (record.cost > 0n) gatewayCost.add({ model: call.body.model }, Number(record.cost) / 100_000_000);
    }
  }

  /** The provider's results; its failures as the gateway's 502, never with its key or its words about it. */
  private async ask(provider: GatewaySearchProvider, query: string, max: number): Promise<SearchResult[]> {
    try {
      return await searchWeb(this.http, provider.target, query, max);
    } catch (error) {
      if (!(error instanceof WebSearchError)) throw error;
      if (error.status === 401 || error.status === 403)
        throw new UpstreamError(
          `The search provider ${provider.id} refused the gateway's key (${error.status}); a workspace owner or admin should check it`,
          error.status,
        );
      throw new UpstreamError(`The search provider ${provider.id}: ${error.message}`, error.status);
    }
  }
}
