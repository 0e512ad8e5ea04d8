import { Type } from '@nestjs/common';
import { Surface } from './config/env';
import { EventsModule } from './modules/events/events.module';
import { AgentsModule } from './modules/agents/agents.module';
import { InstanceAuthModule } from './modules/instance-auth/instance-auth.module';
import { LocationReloadModule } from './modules/location-reload/location-reload.module';
import { LocationsModule } from './modules/locations/locations.module';
import { PairingModule } from './modules/pairing/pairing.module';
import { ServerModule } from './modules/server/server.module';
import { PluginsModule } from './modules/plugins/plugins.module';
import { AuditModule } from './modules/audit/audit.module';
import { IdentityModule } from './modules/identity/identity.module';
import { KeysModule } from './modules/keys/keys.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';
import { WorkspaceConfigModule } from './modules/workspace-config/workspace-config.module';
import { BudgetsModule } from './modules/budgets/budgets.module';
import { RuntimeModule } from './modules/runtime/runtime.module';
import { DeviceModule } from './modules/device/device.module';
import { ConsoleWebModule } from './modules/console-web/console-web.module';
import { SsoModule } from './modules/sso/sso.module';
import { SessionsModule } from './modules/sessions/sessions.module';
import { PromptModule } from './modules/prompt/prompt.module';
import { SessionTransferModule } from './modules/session-transfer/session-transfer.module';
import { SessionStatsModule } from './modules/session-stats/session-stats.module';
import { InferenceModule } from './modules/inference/inference.module';
import { ConsoleMcpModule } from './modules/console-mcp/console-mcp.module';
import { ConnectionsModule } from './modules/connections/connections.module';
import { LocationCatalogModule } from './modules/location-catalog/location-catalog.module';
import { OpencodeV1Module } from './modules/opencode-v1/opencode-v1.module';
import { SessionHistoryModule } from './modules/session-history/session-history.module';
import { SessionCompactionModule } from './modules/session-compaction/session-compaction.module';
import { SessionRevertModule } from './modules/session-revert/session-revert.module';
import { LocationFsModule } from './modules/location-fs/location-fs.module';
import { SavedPermissionsModule } from './modules/saved-permissions/saved-permissions.module';
import { PtyModule } from './modules/pty/pty.module';
import { ProviderSetupModule } from './modules/provider-setup/provider-setup.module';

/**
 * The domain modules of each surface. `OUTPOST_SURFACES` picks which ones a process serves;
 * a new domain module is added to its surface's list here.
 */
export const SURFACE_MODULES: Record<Surface, Type[]> = {
  instance: [
    InstanceAuthModule,
    LocationsModule,
    ServerModule,
    PairingModule,
    EventsModule,
    AgentsModule,
    PluginsModule,
    LocationReloadModule,
    RuntimeModule,
    SessionsModule,
    PromptModule,
    SessionTransferModule,
    SessionStatsModule,
    LocationCatalogModule,
    OpencodeV1Module,
    SessionHistoryModule,
    SessionCompactionModule,
    SessionRevertModule,
    SavedPermissionsModule,
    LocationFsModule,
    PtyModule,
    ProviderSetupModule,
  ],
  console: [
    IdentityModule,
    WorkspacesModule,
    KeysModule,
    AuditModule,
    DeviceModule,
    ConsoleWebModule,
    SsoModule,
    WorkspaceConfigModule,
    BudgetsModule,
    ConnectionsModule,
  ],
  inference: [InferenceModule, ConsoleMcpModule],
};
