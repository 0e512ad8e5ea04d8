import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { locationConfigConfig } from './location-config.config';
import { LocationConfigService } from './location-config.service';

@Module({
  imports: [ConfigModule.forFeature(locationConfigConfig)],
  providers: [LocationConfigService],
  exports: [LocationConfigService],
})
export class LocationConfigModule {}
