import { Global, Module } from '@nestjs/common';
import { AuthRegistry } from './auth';
import { Clock } from './clock';
import { ErrorFormats } from './errors/error-formats';
import { EventsPublisher } from './events';

/** Small shared services every domain may inject. */
@Global()
@Module({
  providers: [Clock, EventsPublisher, AuthRegistry, ErrorFormats],
  exports: [Clock, EventsPublisher, AuthRegistry, ErrorFormats],
})
export class CommonModule {}
