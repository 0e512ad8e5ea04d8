import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InstanceAuthModule } from '../instance-auth/instance-auth.module';
import { PairingCodeEntity } from './pairing-code.entity';
import { PairingCodesRepository } from './pairing-codes.repository';
import { pairingConfig } from './pairing.config';
import { PairingController } from './pairing.controller';
import { PairingService } from './pairing.service';

@Module({
  imports: [
    ConfigModule.forFeature(pairingConfig),
    TypeOrmModule.forFeature([PairingCodeEntity]),
    InstanceAuthModule,
  ],
  controllers: [PairingController],
  providers: [PairingService, PairingCodesRepository],
})
export class PairingModule {}
