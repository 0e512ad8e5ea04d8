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

/**
 * Bring-your-own-key connections (the Providers family): their console routes, and `ConnectionsService.forInference`
 * for the gateway's `/inference/custom/{conn_id}/…` routes.
 */
@Module({
  imports: [
    ConfigModule.forFeature(consoleAccessConfig),
    TypeOrmModule.forFeature([ConnectionEntity]),
    KeysModule,
    AuditModule,
  ],
  controllers: [ConnectionsController],
  providers: [CredentialCipher, ConnectionsService, ConnectionsRepository],
  exports: [ConnectionsService],
})
export class ConnectionsModule {}
