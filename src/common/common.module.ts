import { Global, Module } from '@nestjs/common';
import { AuthRegistry } from './auth';
import { Clock } from './clock';
import { EventsPublisher } from './events';

/** Small shared services every domain may inject. */
@Global()
@Module({
  providers: [Clock, EventsPublisher, AuthRegistry],
  exports: [Clock, EventsPublisher, AuthRegistry],
})
export class CommonModule {}
