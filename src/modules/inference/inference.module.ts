import { registerJsonApi } from '@/common/http/json-only';
import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AuthRegistry } from '@/common/auth';
import { ErrorFormats } from '@/common/errors/error-formats';
import { HttpLanes } from '@/common/http/http-lanes';
import { BudgetsModule } from '../budgets/budgets.module';
import { ConsoleAuthenticator } from '../console-access/console.authenticator';
import { ConnectionsModule } from '../connections/connections.module';
import { KeysModule } from '../keys/keys.module';
import { WorkspaceConfigModule } from '../workspace-config/workspace-config.module';
import { gatewayConfig } from './gateway.config';
import { GatewayService } from './gateway.service';
import { GatewayTargets } from './gateway-targets';
import { DeploymentHealth } from './deployment-health';
import { UpstreamSender } from './upstream-sender';
import { KeyLimits } from './key-limits';
import { CallBudgets } from './call-budgets';
import { OfferedProviders } from './offered-providers';
import { WorkspaceConfigService } from '../workspace-config/workspace-config.service';
import { inferenceErrorBody } from './inference-error-body';
import { InferenceLane, useKeyHeader } from './inference-lane';
import { InferenceController } from './inference.controller';
import { SearchController } from './search.controller';
import { ConnectionTestController } from './connection-test.controller';
import { ConnectionTester } from './connection-tester';
import { SearchGateway } from './search-gateway';

export const INFERENCE_PREFIXES = ['/inference/'];

/**
 * `/inference/*`: OpenAI- and Anthropic-compatible routes for console keys. The console authenticator checks the
 * key (Inference-only and All keys, user tokens with `x-org-id`, device tokens); the SDKs' own headers work too.
 * Model calls with a key take the lane before Fastify (`InferenceLane`).
 */
@Module({
  imports: [
    ConfigModule.forFeature(gatewayConfig),
    KeysModule,
    BudgetsModule,
    WorkspaceConfigModule,
    ConnectionsModule,
  ],
  controllers: [InferenceController, SearchController, ConnectionTestController],
  providers: [
    GatewayService,
    GatewayTargets,
    DeploymentHealth,
    UpstreamSender,
    KeyLimits,
    CallBudgets,
    InferenceLane,
    OfferedProviders,
    SearchGateway,
    ConnectionTester,
  ],
  exports: [GatewayTargets, SearchGateway],
})
export class InferenceModule implements OnModuleInit {
  constructor(
    private readonly registry: AuthRegistry,
    private readonly authenticator: ConsoleAuthenticator,
    private readonly adapter: HttpAdapterHost,
    private readonly errorFormats: ErrorFormats,
    private readonly lane: InferenceLane,
    private readonly workspaceConfig: WorkspaceConfigService,
    private readonly offered: OfferedProviders,
  ) {}

  onModuleInit(): void {
    this.registry.register(INFERENCE_PREFIXES, this.authenticator);
    this.authenticator.cacheOn(INFERENCE_PREFIXES);
    for (const prefix of INFERENCE_PREFIXES) registerJsonApi(prefix);
    // Workspace configs offer the gateway's models and the workspace's connections (OfferedProviders).
    this.workspaceConfig.offer(this.offered.entries);
    for (const prefix of INFERENCE_PREFIXES) this.errorFormats.register(prefix, inferenceErrorBody);
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    HttpLanes.of(fastify)?.add(this.lane.match);
    // The SDKs' key headers, for the routes Fastify serves (the model lists).
    fastify.addHook('onRequest', (request, _reply, done) => {
      if (request.url.startsWith('/inference/')) useKeyHeader(request.headers);
      done();
    });
  }
}
