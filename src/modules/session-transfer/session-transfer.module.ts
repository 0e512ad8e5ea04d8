import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SessionTransferController } from './session-transfer.controller';
import { SessionTransferService } from './session-transfer.service';

@Module({
  imports: [SessionsModule, LocationsModule],
  controllers: [SessionTransferController],
  providers: [SessionTransferService],
})
export class SessionTransferModule {}
