import { Module } from '@nestjs/common';
import { LocationConfigModule } from '../location-config/location-config.module';
import { ProviderSetupController } from './provider-setup.controller';
import { ProviderSetupService } from './provider-setup.service';

/** Adding a model provider from the web app (the Models page), its key kept out of every config file. */
@Module({
  imports: [LocationConfigModule],
  controllers: [ProviderSetupController],
  providers: [ProviderSetupService],
  exports: [ProviderSetupService],
})
export class ProviderSetupModule {}
