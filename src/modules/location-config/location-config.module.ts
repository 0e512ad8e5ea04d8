import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { LocationsModule } from '../locations/locations.module';
import { locationConfigConfig } from './location-config.config';
import { ConfigFilesService } from './config-files.service';
import { LocationConfigService } from './location-config.service';

@Module({
  imports: [ConfigModule.forFeature(locationConfigConfig), LocationsModule],
  providers: [LocationConfigService, ConfigFilesService],
  exports: [LocationConfigService, ConfigFilesService],
})
export class LocationConfigModule {}
