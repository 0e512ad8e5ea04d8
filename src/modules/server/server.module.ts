import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { ServerController } from './server.controller';
import { ServerInfoService } from './server-info.service';

@Module({
  imports: [LocationsModule],
  controllers: [ServerController],
  providers: [ServerInfoService],
})
export class ServerModule {}
