import { Module } from '@nestjs/common';
import { PromptModule } from '../prompt/prompt.module';
import { SessionCompactionController } from './session-compaction.controller';

/** The v2 route that compacts a session's transcript. */
@Module({
  imports: [PromptModule],
  controllers: [SessionCompactionController],
})
export class SessionCompactionModule {}
