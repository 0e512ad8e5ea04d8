import { Body, Controller, Delete, Get, HttpCode, Param, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { actorOf } from '../console-access/actor';
import { OrgRole, SignedInOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { MemberDto, UpdateMemberDto } from './dto/member.dto';
import { MembersService } from './members.service';

@ApiTags('console: members')
@Controller('console/api/orgs/:org/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @OrgRole('member')
  @ApiOperation({ operationId: 'member.list', summary: 'People and service accounts of the workspace' })
  async list(@Param('org') org: string): Promise<MemberDto[]> {
    return (await this.members.list(org)).map((m) => ({
      user_id: m.userId,
      email: m.email,
      name: m.name,
      role: m.role,
      kind: m.kind,
    }));
  }

  @Patch(':user_id')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('admin')
  @ApiOperation({ operationId: 'member.update', summary: 'Change a member’s role (never the last owner’s)' })
  async update(
    @Param('org') org: string,
    @Param('user_id') userId: string,
    @Body() body: UpdateMemberDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.members.changeRole(principal, actorOf(principal), org, userId, body.role);
  }

  @Delete(':user_id')
  @HttpCode(204)
  @SignedInOnly()
  @OrgRole('member')
  @ApiOperation({
    operationId: 'member.remove',
    summary: 'Remove a member (admins) or leave (anyone); ends their keys for this workspace',
  })
  async remove(
    @Param('org') org: string,
    @Param('user_id') userId: string,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.members.remove(principal, actorOf(principal), org, userId);
  }
}
