import { Module } from '@nestjs/common';
import { PromptModule } from '../prompt/prompt.module';
import { SessionRevertController } from './session-revert.controller';

/** The v2 routes that stage, commit and clear a session's revert. */
@Module({
  imports: [PromptModule],
  controllers: [SessionRevertController],
})
export class SessionRevertModule {}
