import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FailedAttemptsLimiter } from './failed-attempts.limiter';
import { instanceAuthConfig } from './instance-auth.config';
import { InstanceAuthenticator } from './instance.authenticator';
import { ServerPasswordService } from './server-password.service';
import { SessionTokenEntity } from './session-token.entity';
import { SessionTokensService } from './session-tokens.service';

@Module({
  imports: [ConfigModule.forFeature(instanceAuthConfig), TypeOrmModule.forFeature([SessionTokenEntity])],
  providers: [ServerPasswordService, SessionTokensService, FailedAttemptsLimiter, InstanceAuthenticator],
  exports: [ServerPasswordService, SessionTokensService, FailedAttemptsLimiter, InstanceAuthenticator],
})
export class InstanceAuthModule {}
