import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { LocationConfigModule } from '../location-config/location-config.module';
import { LocationsModule } from '../locations/locations.module';
import { PluginsModule } from '../plugins/plugins.module';
import { LocationReloadController } from './location-reload.controller';
import { LocationReloadService } from './location-reload.service';

@Module({
  imports: [LocationsModule, LocationConfigModule, PluginsModule, AgentsModule],
  controllers: [LocationReloadController],
  providers: [LocationReloadService],
  exports: [LocationReloadService],
})
export class LocationReloadModule {}
