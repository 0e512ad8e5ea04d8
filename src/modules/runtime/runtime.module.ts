import { Module } from '@nestjs/common';
import { LocationConfigModule } from '../location-config/location-config.module';
import { LocationReloadModule } from '../location-reload/location-reload.module';
import { PermissionReloadHook } from './permissions/permission-reload.hook';
import { PermissionRequestsService } from './permissions/permission-requests.service';
import { ModelStep } from './providers/model-step';
import { ProvidersService } from './providers/providers.service';
import { QuestionRequestsService } from './questions/question-requests.service';
import { SkillsService } from './skills/skills.service';
import { ToolRunner } from './tools/tool-runner';
import { WebSearchTools } from './tools/web-search-tools';

/**
 * The agent loop's building blocks: a location's providers, provider steps, tool calls under permission rules,
 * pending permission requests and questions (rejected when their location reloads), and the location's skills. Tools are plain objects
 * (`BUILTIN_TOOLS`).
 */
@Module({
  imports: [LocationConfigModule, LocationReloadModule],
  providers: [
    ModelStep,
    PermissionRequestsService,
    QuestionRequestsService,
    SkillsService,
    ToolRunner,
    ProvidersService,
    PermissionReloadHook,
    WebSearchTools,
  ],
  exports: [
    ModelStep,
    PermissionRequestsService,
    QuestionRequestsService,
    SkillsService,
    ToolRunner,
    ProvidersService,
    WebSearchTools,
  ],
})
export class RuntimeModule {}
