import { Module } from '@nestjs/common';
import { PermissionRequestsService } from './permissions/permission-requests.service';
import { ModelStep } from './providers/model-step.service';
import { ToolRunner } from './tools/tool-runner.service';

/**
 * The agent loop's building blocks: provider steps, tool calls under permission rules,
 * and pending permission requests. Providers come from each
 * location's config (`new ProviderRegistry(config.provider)`); tools are plain objects (`BUILTIN_TOOLS`).
 */
@Module({
  providers: [ModelStep, PermissionRequestsService, ToolRunner],
  exports: [ModelStep, PermissionRequestsService, ToolRunner],
})
export class RuntimeModule {}
