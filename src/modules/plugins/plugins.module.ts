import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { LocationConfigModule } from '../location-config/location-config.module';
import { LocationsModule } from '../locations/locations.module';
import { NpmClient } from './npm.client';
import { PackageInstaller } from './package-installer';
import { pluginsConfig } from './plugins.config';
import { PluginsController } from './plugins.controller';
import { PluginsService } from './plugins.service';

@Module({
  imports: [ConfigModule.forFeature(pluginsConfig), LocationsModule, LocationConfigModule],
  controllers: [PluginsController],
  providers: [PluginsService, PackageInstaller, NpmClient],
  exports: [PluginsService],
})
export class PluginsModule {}
