import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrowserSignInController } from './browser-sign-in.controller';
import { BrowserSignInService } from './browser-sign-in.service';
import { FailedAttemptsLimiter } from './failed-attempts.limiter';
import { instanceAuthConfig } from './instance-auth.config';
import { InstanceAuthenticator } from './instance.authenticator';
import { ServerPasswordService } from './server-password.service';
import { SessionTokenEntity } from './session-token.entity';
import { SessionTokensRepository } from './session-tokens.repository';
import { SessionTokensService } from './session-tokens.service';

@Module({
  imports: [ConfigModule.forFeature(instanceAuthConfig), TypeOrmModule.forFeature([SessionTokenEntity])],
  controllers: [BrowserSignInController],
  providers: [
    BrowserSignInService,
    ServerPasswordService,
    SessionTokensService,
    SessionTokensRepository,
    FailedAttemptsLimiter,
    InstanceAuthenticator,
  ],
  exports: [ServerPasswordService, SessionTokensService, FailedAttemptsLimiter, InstanceAuthenticator],
})
export class InstanceAuthModule {}
