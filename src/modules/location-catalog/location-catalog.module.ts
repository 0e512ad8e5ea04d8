import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { PromptModule } from '../prompt/prompt.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { LocationCatalogController } from './location-catalog.controller';
import { ProviderTestController } from './provider-test.controller';
import { ProviderTester } from './provider-tester';

/**
 * Lists of a location that opencode's v2 clients read: health, models, commands, skills, pending permission requests
 * and questions; and the Models page's Test of a provider.
 */
@Module({
  imports: [LocationsModule, RuntimeModule, PromptModule],
  controllers: [LocationCatalogController, ProviderTestController],
  providers: [ProviderTester],
})
export class LocationCatalogModule {}
