import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { outboundConfig } from '@/common/net/outbound.config';
import { consoleAccessConfig } from '../console-access/console-access.config';
import { IdentityModule } from '../identity/identity.module';
import { ssoConfig } from './sso.config';
import { SsoController } from './sso.controller';
import { SsoService } from './sso.service';

/** Console sign-in with the company's identity provider (OpenID Connect). */
@Module({
  imports: [
    ConfigModule.forFeature(ssoConfig),
    ConfigModule.forFeature(outboundConfig),
    ConfigModule.forFeature(consoleAccessConfig),
    IdentityModule,
  ],
  controllers: [SsoController],
  providers: [SsoService],
  exports: [SsoService],
})
export class SsoModule {}
