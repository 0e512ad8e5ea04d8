import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { LocationConfigModule } from '../location-config/location-config.module';
import { consoleLinkConfig } from './console-link.config';
import { ConsoleLinkService } from './console-link.service';

/** The instance signed in to a console (`outpost login`): its workspace's providers and policies in every location. */
@Module({
  imports: [ConfigModule.forFeature(consoleLinkConfig), LocationConfigModule],
  providers: [ConsoleLinkService],
  exports: [ConsoleLinkService],
})
export class ConsoleLinkModule {}
