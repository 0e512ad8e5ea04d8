import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { consoleAccessConfig, ConsoleAccessConfig } from '../console-access/console-access.config';
import { actorOf } from '../console-access/actor';
import { OrgRole, SignedInOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal, personId } from '../console-access/console-principal';
import { CreateInviteDto, InviteCreatedDto, InviteDto } from './dto/invite.dto';
import { WorkspaceWithRoleDto } from './dto/member.dto';
import { InvitesService } from './invites.service';
import { HttpRequest, requestOrigin } from '@/common/http/http';

@ApiTags('console: members')
@Controller('console/api')
export class InvitesController {
  constructor(
    private readonly invites: InvitesService,
    @Inject(consoleAccessConfig.KEY) private readonly config: ConsoleAccessConfig,
  ) {}

  @Post('orgs/:org/invites')
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'invite.create',
    summary: 'Invite an email (owners invite owners; members → 409)',
  })
  async create(
    @Param('org') org: string,
    @Body() body: CreateInviteDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
  ): Promise<InviteCreatedDto> {
    const base = this.config.origin ?? requestOrigin(request);
    const { invite, url, replaced, emailed } = await this.invites.create(
      principal,
      actorOf(principal),
      org,
      body.email,
      body.role,
      base,
    );
    return {
      id: invite.id,
      url,
      expires_at: invite.expiresAt.toISOString(),
      replaced_earlier: replaced,
      emailed,
    };
  }

  @Get('orgs/:org/invites')
  @OrgRole('admin')
  @ApiOperation({ operationId: 'invite.list', summary: 'Pending invitations' })
  async list(@Param('org') org: string): Promise<InviteDto[]> {
    return (await this.invites.listPending(org)).map((invite) => ({
      id: invite.id,
      email: invite.email,
      role: invite.role,
      created_at: invite.createdAt.toISOString(),
      expires_at: invite.expiresAt.toISOString(),
    }));
  }

  @Delete('orgs/:org/invites/:id')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'invite.revoke' })
  async revoke(
    @Param('org') org: string,
    @Param('id') id: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.invites.revoke(actorOf(principal), org, id);
  }

  @Post('invites/:token/accept')
  @HttpCode(200)
  @SignedInOnly()
  @ApiOperation({
    operationId: 'invite.accept',
    summary: 'Join the workspace (signed in as the invited email)',
  })
  async accept(
    @Param('token') token: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<WorkspaceWithRoleDto> {
    return this.invites.accept(
      token,
      { id: personId(principal), email: principal.email ?? '' },
      actorOf(principal),
    );
  }
}
