import { Module, OnModuleInit } from '@nestjs/common';
import { AuthRegistry } from '@/common/auth';
import { AgentsModule } from '../agents/agents.module';
import { EventsModule } from '../events/events.module';
import { InstanceAuthModule } from '../instance-auth/instance-auth.module';
import { InstanceAuthenticator } from '../instance-auth/instance.authenticator';
import { LocationReloadModule } from '../location-reload/location-reload.module';
import { LocationsModule } from '../locations/locations.module';
import { McpModule } from '../mcp/mcp.module';
import { ProjectsModule } from '../projects/projects.module';
import { PromptModule } from '../prompt/prompt.module';
import { ProviderSetupModule } from '../provider-setup/provider-setup.module';
import { LocationConfigModule } from '../location-config/location-config.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { SessionsModule } from '../sessions/sessions.module';
import { V1EditsController } from './v1-edits.controller';
import { V1EventsService } from './v1-events.service';
import { V1FilesController } from './v1-files.controller';
import { V1FilesService } from './v1-files.service';
import { V1McpController } from './v1-mcp.controller';
import { V1InstanceController } from './v1-instance.controller';
import { V1InstanceService } from './v1-instance.service';
import { V1QuestionsController } from './v1-questions.controller';
import { V1ProjectController } from './v1-project.controller';
import { V1SessionsController } from './v1-sessions.controller';
import { V1PartsService } from './v1-parts.service';
import { V1SessionsService } from './v1-sessions.service';
import { V1SettingsService } from './v1-settings.service';
import { V1GitController } from './v1-git.controller';
import { V1GitService } from './v1-git.service';
import { V1TuiController } from './v1-tui.controller';
import { V1TuiService } from './v1-tui.service';
import { V1VcsService } from './v1-vcs.service';

/** The paths of opencode's v1 routes: the instance's credentials guard them (unknown ones too). */
export const V1_PREFIXES = [
  '/path',
  '/project',
  '/config',
  '/provider',
  '/agent',
  '/command',
  '/skill',
  '/mcp',
  '/lsp',
  '/formatter',
  '/vcs',
  '/session',
  '/permission',
  '/question',
  '/event',
  '/global/',
  '/experimental/',
  '/find',
  '/file',
  '/log',
  '/pty',
  '/tui',
  '/instance',
  '/auth/',
];

/**
 * Compatibility with opencode 1.18.33's released CLI and TUI: the v1 routes they call, translated onto the
 * instance's sessions, agent loop, events, agents and location config.
 */
@Module({
  imports: [
    InstanceAuthModule,
    LocationsModule,
    AgentsModule,
    RuntimeModule,
    SessionsModule,
    PromptModule,
    EventsModule,
    McpModule,
    LocationReloadModule,
    LocationConfigModule,
    ProjectsModule,
    ProviderSetupModule,
  ],
  controllers: [
    V1InstanceController,
    V1SessionsController,
    V1FilesController,
    V1ProjectController,
    V1McpController,
    V1QuestionsController,
    V1TuiController,
    V1GitController,
    V1EditsController,
  ],
  providers: [
    V1InstanceService,
    V1SessionsService,
    V1EventsService,
    V1FilesService,
    V1VcsService,
    V1TuiService,
    V1GitService,
    V1PartsService,
    V1SettingsService,
  ],
})
export class OpencodeV1Module implements OnModuleInit {
  constructor(
    private readonly registry: AuthRegistry,
    private readonly authenticator: InstanceAuthenticator,
  ) {}

  onModuleInit(): void {
    this.registry.register(V1_PREFIXES, this.authenticator, { guardUnknownRoutes: true });
  }
}
