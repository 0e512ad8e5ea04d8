import { Module } from '@nestjs/common';
import { PermissionRequestsService } from './permissions/permission-requests.service';
import { ModelStep } from './providers/model-step.service';

/**
 * The agent loop's building blocks: provider steps and pending permission requests. Providers come from each
 * location's config (`new ProviderRegistry(config.provider)`); tools are plain objects (`BUILTIN_TOOLS`).
 */
@Module({
  providers: [ModelStep, PermissionRequestsService],
  exports: [ModelStep, PermissionRequestsService],
})
export class RuntimeModule {}
