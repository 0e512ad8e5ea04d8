import { Module } from '@nestjs/common';
import { LocationConfigModule } from '../location-config/location-config.module';
import { LocationsModule } from '../locations/locations.module';
import { PluginsModule } from '../plugins/plugins.module';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';

@Module({
  imports: [LocationsModule, LocationConfigModule, PluginsModule],
  controllers: [AgentsController],
  providers: [AgentsService],
  exports: [AgentsService],
})
export class AgentsModule {}
