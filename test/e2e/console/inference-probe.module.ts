import { Controller, Get, Module } from '@nestjs/common';
import { CurrentPrincipal } from '@/common/auth';
import { AllowInferenceKeys, OrgRole } from '@/modules/console-access/console-access.decorators';
import { ConsolePrincipal } from '@/modules/console-access/console-principal';

/** A route declared like `GET /console/api/v2/config` will be: any member, any key permission. */
@Controller('console/api/probe-config')
class InferenceProbeController {
  @Get()
  @AllowInferenceKeys()
  @OrgRole('member')
  get(@CurrentPrincipal() principal: ConsolePrincipal) {
    return { workspaceId: principal.workspaceId, permission: principal.permission, role: principal.role };
  }
}

@Module({ controllers: [InferenceProbeController] })
export class InferenceProbeModule {}
