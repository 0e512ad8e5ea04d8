import { registerJsonApi } from '@/common/http/json-only';
import { Module, OnModuleInit } from '@nestjs/common';
import { AuthRegistry } from '@/common/auth';
import { BudgetsModule } from '../budgets/budgets.module';
import { ConsoleAuthenticator } from '../console-access/console.authenticator';
import { InferenceModule } from '../inference/inference.module';
import { KeysModule } from '../keys/keys.module';
import { WorkspaceConfigModule } from '../workspace-config/workspace-config.module';
import { WorkspaceConfigService } from '../workspace-config/workspace-config.service';
import { ConsoleMcpController } from './console-mcp.controller';
import { ConsoleMcpServer } from './console-mcp-server';
import { consoleMcpEntry, CONSOLE_MCP_PATH, CONSOLE_MCP_SERVER } from './console-mcp-entry';

/**
 * The console's own MCP server (`/console/mcp`), served where the gateway is (its `websearch` is the gateway's
 * metered search), and offered to every member in the workspace config's `mcp` as `outpost`.
 */
@Module({
  imports: [KeysModule, InferenceModule, BudgetsModule, WorkspaceConfigModule],
  controllers: [ConsoleMcpController],
  providers: [ConsoleMcpServer],
})
export class ConsoleMcpModule implements OnModuleInit {
  constructor(
    private readonly registry: AuthRegistry,
    private readonly authenticator: ConsoleAuthenticator,
    private readonly workspaceConfig: WorkspaceConfigService,
  ) {}

  onModuleInit(): void {
    this.registry.register([CONSOLE_MCP_PATH], this.authenticator);
    registerJsonApi(CONSOLE_MCP_PATH);
    this.workspaceConfig.offerMcp((workspaceId, origin) => ({
      [CONSOLE_MCP_SERVER]: consoleMcpEntry(workspaceId, origin),
    }));
  }
}
