import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AuthRegistry } from '../../common/auth';
import { ErrorFormats } from '../../common/errors/error-formats';
import { BudgetsModule } from '../budgets/budgets.module';
import { ConsoleAuthenticator } from '../keys/access/console.authenticator';
import { ConnectionsModule } from '../connections/connections.module';
import { KeysModule } from '../keys/keys.module';
import { WorkspaceConfigModule } from '../workspace-config/workspace-config.module';
import { gatewayConfig } from './gateway.config';
import { GatewayService } from './gateway.service';
import { inferenceErrorBody } from './inference-error-body';
import { InferenceController } from './inference.controller';

export const INFERENCE_PREFIXES = ['/inference/'];

/**
 * `/inference/*`: OpenAI- and Anthropic-compatible routes for console keys. The console authenticator checks the
 * key (Inference-only and All keys, user tokens with `x-org-id`, device tokens); the SDKs' own headers work too.
 */
@Module({
  imports: [
    ConfigModule.forFeature(gatewayConfig),
    KeysModule,
    BudgetsModule,
    WorkspaceConfigModule,
    ConnectionsModule,
  ],
  controllers: [InferenceController],
  providers: [GatewayService],
})
export class InferenceModule implements OnModuleInit {
  constructor(
    private readonly registry: AuthRegistry,
    private readonly authenticator: ConsoleAuthenticator,
    private readonly adapter: HttpAdapterHost,
    private readonly errorFormats: ErrorFormats,
  ) {}

  onModuleInit(): void {
    this.registry.register(INFERENCE_PREFIXES, this.authenticator);
    for (const prefix of INFERENCE_PREFIXES) this.errorFormats.register(prefix, inferenceErrorBody);
    // The key travels as `Authorization: Bearer` (OpenAI's SDK), `x-api-key` (Anthropic's) or `api-key` (Azure
    // style); in that order of precedence, it becomes the bearer credential the authenticator reads.
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request, _reply, done) => {
      if (request.url.startsWith('/inference/') && !request.headers.authorization) {
        const key = request.headers['x-api-key'] ?? request.headers['api-key'];
        if (typeof key === 'string' && key) request.headers.authorization = `Bearer ${key}`;
      }
      done();
    });
  }
}
