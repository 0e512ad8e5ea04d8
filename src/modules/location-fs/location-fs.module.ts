import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { LocationFsController } from './location-fs.controller';
import { LocationFsService } from './location-fs.service';

/** The v2 file-system routes of a location (`fs.list`, `fs.find`, `fs.read`). */
@Module({
  imports: [LocationsModule],
  controllers: [LocationFsController],
  providers: [LocationFsService],
})
export class LocationFsModule {}
