import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { PtyController } from './pty.controller';

/** The v2 pseudo-terminal routes, which say that Outpost runs none. */
@Module({
  imports: [LocationsModule],
  controllers: [PtyController],
})
export class PtyModule {}
