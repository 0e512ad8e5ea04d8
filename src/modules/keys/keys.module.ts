import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { identityConfig } from '../identity/identity.config';
import { CredentialCache } from './access/credential-cache';
import { ConsoleAuthenticator } from './access/console.authenticator';
import { CredentialLookupRepository } from './access/credential-lookup.repository';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';
import { keysConfig } from './keys.config';
import { PersonalKeysController } from './personal-keys.controller';
import { SecretHasher } from './secret-hasher.service';
import { ServiceAccountEntity } from './service-account.entity';
import { ServiceAccountsController } from './service-accounts.controller';
import { ServiceAccountsService } from './service-accounts.service';
import { TokensController } from './tokens.controller';
import { UserTokenEntity } from './user-token.entity';
import { UserTokensService } from './user-tokens.service';

/** Service accounts, API keys, user tokens, and the one authenticator of `/console/api/`. */
@Module({
  imports: [
    ConfigModule.forFeature(keysConfig),
    ConfigModule.forFeature(identityConfig),
    TypeOrmModule.forFeature([ServiceAccountEntity, ApiKeyEntity, UserTokenEntity]),
    AuditModule,
  ],
  controllers: [ServiceAccountsController, PersonalKeysController, TokensController],
  providers: [
    SecretHasher,
    CredentialLookupRepository,
    CredentialCache,
    ConsoleAuthenticator,
    ServiceAccountsService,
    ApiKeysService,
    UserTokensService,
  ],
  exports: [ConsoleAuthenticator, SecretHasher, ServiceAccountsService, ApiKeysService],
})
export class KeysModule {}
