import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { LocationCatalogController } from './location-catalog.controller';

/** Lists of a location that opencode's v2 clients read: health, pending permission requests, and empty catalogues. */
@Module({ imports: [LocationsModule, RuntimeModule], controllers: [LocationCatalogController] })
export class LocationCatalogModule {}
