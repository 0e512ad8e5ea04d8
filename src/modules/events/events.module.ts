import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { LocationsModule } from '../locations/locations.module';
import { eventsConfig } from './events.config';
import { EventsController } from './events.controller';
import { EventStreamsService } from './event-streams.service';
import { SseStreams } from './sse-streams';

@Module({
  imports: [ConfigModule.forFeature(eventsConfig), LocationsModule],
  controllers: [EventsController],
  providers: [EventStreamsService, SseStreams],
  exports: [SseStreams],
})
export class EventsModule {}
