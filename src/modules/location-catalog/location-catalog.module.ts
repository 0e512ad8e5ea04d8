import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { PromptModule } from '../prompt/prompt.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { LocationCatalogController } from './location-catalog.controller';

/** Lists of a location that opencode's v2 clients read: health, models, commands, skills, pending permission requests and questions. */
@Module({ imports: [LocationsModule, RuntimeModule, PromptModule], controllers: [LocationCatalogController] })
export class LocationCatalogModule {}
