import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ConsoleAuthenticator, requestedOrg } from '../console-access/console.authenticator';
import { KeysModule } from '../keys/keys.module';
import { TOKEN_PREFIXES } from '../console-access/token-format';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { CodeAttemptEntity } from './code-attempt.entity';
import { CodeAttemptsRepository } from './code-attempts.repository';
import { DeviceAuthorizationEntity } from './device-authorization.entity';
import { DeviceAuthorizationsRepository } from './device-authorizations.repository';
import { deviceConfig } from './device.config';
import { DeviceFlowService } from './device-flow.service';
import { DeviceOAuthController } from './device-oauth.controller';
import { DeviceSessionEntity } from './device-session.entity';
import { DeviceSessionsRepository } from './device-sessions.repository';
import { DeviceSessionsController } from './device-sessions.controller';
import { DeviceTokenEntity } from './device-token.entity';
import { DeviceTokensService } from './device-tokens.service';

/** Device sign-in (RFC 8628) for CLIs, with rotating refresh tokens and `oc_at_` access tokens. */
@Module({
  imports: [
    ConfigModule.forFeature(deviceConfig),
    TypeOrmModule.forFeature([
      DeviceAuthorizationEntity,
      DeviceSessionEntity,
      DeviceTokenEntity,
      CodeAttemptEntity,
    ]),
    AuditModule,
    KeysModule,
    WorkspacesModule,
  ],
  controllers: [DeviceOAuthController, DeviceSessionsController],
  providers: [
    DeviceFlowService,
    DeviceAuthorizationsRepository,
    CodeAttemptsRepository,
    DeviceTokensService,
    DeviceSessionsRepository,
  ],
  exports: [DeviceFlowService, DeviceTokensService],
})
export class DeviceModule implements OnModuleInit {
  constructor(
    private readonly authenticator: ConsoleAuthenticator,
    private readonly tokens: DeviceTokensService,
  ) {}

  onModuleInit(): void {
    this.authenticator.registerBearer(TOKEN_PREFIXES.deviceAccess, (token, request) =>
      this.tokens.lookupAccess(token, requestedOrg(request)),
    );
  }
}
