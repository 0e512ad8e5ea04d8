import { Module } from '@nestjs/common';
import { ConsoleLinkModule } from '../console-link/console-link.module';
import { LocationsModule } from '../locations/locations.module';
import { ServerController } from './server.controller';
import { ServerInfoService } from './server-info.service';

@Module({
  imports: [LocationsModule, ConsoleLinkModule],
  controllers: [ServerController],
  providers: [ServerInfoService],
})
export class ServerModule {}
