import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AgentsModule } from '../agents/agents.module';
import { LocationsModule } from '../locations/locations.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { SessionsModule } from '../sessions/sessions.module';
import { DrainsService } from './drains.service';
import { InboxRepository } from './inbox/inbox.repository';
import { AgentLoop } from './loop/agent-loop.service';
import { PromptController } from './prompt.controller';
import { promptConfig } from './prompt.config';
import { PromptService } from './prompt.service';

/**
 * session.prompt and what it drives: the durable inbox, one drain per running session, and the agent loop
 * (provider steps and tools under permission rules, from the runtime module).
 */
@Module({
  imports: [
    ConfigModule.forFeature(promptConfig),
    SessionsModule,
    LocationsModule,
    AgentsModule,
    RuntimeModule,
  ],
  controllers: [PromptController],
  providers: [PromptService, DrainsService, InboxRepository, AgentLoop],
  exports: [DrainsService],
})
export class PromptModule {}
