import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AgentsModule } from '../agents/agents.module';
import { LocationConfigModule } from '../location-config/location-config.module';
import { LocationsModule } from '../locations/locations.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { SessionsModule } from '../sessions/sessions.module';
import { McpModule } from '../mcp/mcp.module';
import { CommandsService } from './commands/commands.service';
import { SessionCompaction } from './compaction/session-compaction';
import { DrainLeases } from './drain-leases';
import { DrainRecovery } from './drain-recovery';
import { DrainSignals } from './drain-signals';
import { DrainsRepository } from './drains.repository';
import { DrainsService } from './drains.service';
import { InboxRepository } from './inbox/inbox.repository';
import { AgentLoop } from './loop/agent-loop';
import { StepTools } from './loop/step-tools';
import { PromptController } from './prompt.controller';
import { promptConfig } from './prompt.config';
import { PromptService } from './prompt.service';
import { SessionPermissions } from './session-permissions';
import { SessionRevert } from './revert/session-revert';
import { SessionShell } from './shell/session-shell';
import { Snapshots } from './snapshots/snapshots';
import { Subagents } from './subagents/subagents';
import { SystemPromptService } from './system/system-prompt.service';
import { SessionTitles } from './titles/session-titles';

/**
 * session.prompt and what it drives: the durable inbox, one drain per running session (claimed in the database,
 * so across processes too), and the agent loop (provider steps and tools under permission rules, from the
 * runtime module).
 */
@Module({
  imports: [
    ConfigModule.forFeature(promptConfig),
    SessionsModule,
    LocationsModule,
    LocationConfigModule,
    AgentsModule,
    RuntimeModule,
    McpModule,
  ],
  controllers: [PromptController],
  providers: [
    PromptService,
    DrainsService,
    DrainLeases,
    DrainRecovery,
    DrainSignals,
    DrainsRepository,
    InboxRepository,
    AgentLoop,
    StepTools,
    SystemPromptService,
    SessionTitles,
    SessionShell,
    SessionCompaction,
    Snapshots,
    SessionRevert,
    SessionPermissions,
    CommandsService,
    Subagents,
  ],
  exports: [DrainsService, PromptService, SessionShell, SessionCompaction, SessionRevert, CommandsService],
})
export class PromptModule {}
