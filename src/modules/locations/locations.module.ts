import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { locationsConfig } from './locations.config';
import { LocationsController } from './locations.controller';
import { LocationsService } from './locations.service';
import { ProjectResolver } from './project-resolver';

@Module({
  imports: [ConfigModule.forFeature(locationsConfig)],
  controllers: [LocationsController],
  providers: [LocationsService, ProjectResolver],
  exports: [LocationsService],
})
export class LocationsModule {}
