import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { LocationConfigModule } from '../location-config/location-config.module';
import { consoleLinkConfig } from './console-link.config';
import { ConsoleLinkController } from './console-link.controller';
import { ConsoleLinkService } from './console-link.service';
import { ConsoleLoginService } from './console-login.service';

/** The instance signed in to a console (`outpost login`): its workspace's providers and policies in every location. */
@Module({
  imports: [ConfigModule.forFeature(consoleLinkConfig), LocationConfigModule],
  controllers: [ConsoleLinkController],
  providers: [ConsoleLinkService, ConsoleLoginService],
  exports: [ConsoleLinkService],
})
export class ConsoleLinkModule {}
