import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { consoleAccessConfig } from '../console-access/console-access.config';
import { KeysModule } from '../keys/keys.module';
import { ConnectionEntity } from './connection.entity';
import { ConnectionsController } from './connections.controller';
import { ConnectionsRepository } from './connections.repository';
import { ConnectionsService } from './connections.service';
import { CredentialCipher } from './credential-cipher';
import { SearchProviderEntity } from './search-provider.entity';
import { SearchProvidersController } from './search-providers.controller';
import { SearchProvidersRepository } from './search-providers.repository';
import { SearchProvidersService } from './search-providers.service';

/**
 * Bring-your-own-key connections (the Providers family): their console routes, and `ConnectionsService.forInference`
 * for the gateway's `/inference/custom/{conn_id}/…` routes; web search providers, and `SearchProvidersService.forGateway`
 * for `/inference/v1/search`.
 */
@Module({
  imports: [
    ConfigModule.forFeature(consoleAccessConfig),
    TypeOrmModule.forFeature([ConnectionEntity, SearchProviderEntity]),
    KeysModule,
    AuditModule,
  ],
  controllers: [ConnectionsController, SearchProvidersController],
  providers: [
    CredentialCipher,
    ConnectionsService,
    ConnectionsRepository,
    SearchProvidersService,
    SearchProvidersRepository,
  ],
  exports: [ConnectionsService, SearchProvidersService],
})
export class ConnectionsModule {}
