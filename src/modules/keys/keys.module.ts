import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ConsoleAccessModule } from '../console-access/console-access.module';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { PersonalKeysController } from './personal-keys.controller';
import { ServiceAccountEntity } from './service-account.entity';
import { ServiceAccountsController } from './service-accounts.controller';
import { ServiceAccountsRepository } from './service-accounts.repository';
import { ServiceAccountsService } from './service-accounts.service';
import { TokensController } from './tokens.controller';
import { UserTokenEntity } from './user-token.entity';
import { UserTokensRepository } from './user-tokens.repository';
import { UserTokensService } from './user-tokens.service';

/** Service accounts, API keys and user tokens (their checking is ConsoleAccessModule's, which it passes on). */
@Module({
  imports: [
    ConsoleAccessModule,
    TypeOrmModule.forFeature([ServiceAccountEntity, ApiKeyEntity, UserTokenEntity]),
    AuditModule,
  ],
  controllers: [ServiceAccountsController, PersonalKeysController, TokensController],
  providers: [
    ServiceAccountsService,
    ServiceAccountsRepository,
    ApiKeysService,
    ApiKeysRepository,
    UserTokensService,
    UserTokensRepository,
  ],
  exports: [ConsoleAccessModule, ServiceAccountsService, ApiKeysService],
})
export class KeysModule {}
