import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { actorOf } from '../console-access/actor';
import { PersonOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal, personId } from '../console-access/console-principal';
import { DeviceTokensService } from './device-tokens.service';
import { DeviceSessionDto } from './dto/device.dto';

@ApiTags('console: device sign-in')
@Controller('console/api/sessions')
export class DeviceSessionsController {
  constructor(private readonly tokens: DeviceTokensService) {}

  @Get()
  @PersonOnly()
  @ApiOperation({
    operationId: 'deviceSession.list',
    summary: "The person's device sign-ins (CLIs), newest first",
  })
  async list(@CurrentPrincipal() principal: ConsolePrincipal): Promise<DeviceSessionDto[]> {
    const sessions = await this.tokens.listSessions(personId(principal));
    return sessions.map((session) => ({
      id: session.id,
      client_id: session.clientId,
      org_id: session.workspaceId,
      user_agent: session.userAgent,
      created_at: session.createdAt.toISOString(),
      last_used_at: session.lastUsedAt?.toISOString() ?? null,
      current: principal.credential === 'device_token' && principal.credentialId === session.id,
    }));
  }

  @Delete(':id')
  @HttpCode(204)
  @PersonOnly()
  @ApiOperation({
    operationId: 'deviceSession.revoke',
    summary: 'Sign a device out: all its tokens stop working',
  })
  @ApiErrorResponse(404, 'NotFound', 'no such sign-in of this person')
  async revoke(@Param('id') id: string, @CurrentPrincipal() principal: ConsolePrincipal): Promise<void> {
    await this.tokens.revokeSession(actorOf(principal), personId(principal), id);
  }
}
