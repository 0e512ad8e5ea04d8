import { Module } from '@nestjs/common';
import { LocationConfigModule } from '../location-config/location-config.module';
import { LocationReloadModule } from '../location-reload/location-reload.module';
import { McpService } from './mcp.service';

/** The agent as an MCP client: each location's configured servers, their tools, prompts and statuses. */
@Module({
  imports: [LocationConfigModule, LocationReloadModule],
  providers: [McpService],
  exports: [McpService],
})
export class McpModule {}
