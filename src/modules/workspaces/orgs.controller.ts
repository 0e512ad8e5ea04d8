import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { actorOf } from '../console-access/actor';
import { PersonOnly } from '../console-access/console-access.decorators';
import { ConsolePrincipal, personId } from '../console-access/console-principal';
import { CreateWorkspaceDto } from './dto/create-workspace.dto';
import { WorkspaceDto, WorkspaceWithRoleDto } from './dto/member.dto';
import { WorkspacesService } from './workspaces.service';

@ApiTags('console: workspaces')
@Controller('console/api/orgs')
export class OrgsController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get()
  @ApiOperation({
    operationId: 'org.list',
    summary: "The caller's workspaces with their role (a key sees only its own workspace)",
  })
  async list(@CurrentPrincipal() principal: ConsolePrincipal): Promise<WorkspaceWithRoleDto[]> {
    if (principal.workspaceId && principal.role) {
      const workspace = await this.workspaces.get(principal.workspaceId);
      return workspace ? [{ id: workspace.id, name: workspace.name, role: principal.role }] : [];
    }
    return this.workspaces.listForUser(personId(principal));
  }

  @Post()
  @PersonOnly()
  @ApiOperation({ operationId: 'org.create', summary: 'Create a workspace; the caller becomes its owner' })
  async create(
    @Body() body: CreateWorkspaceDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<WorkspaceDto> {
    const workspace = await this.workspaces.create(actorOf(principal), personId(principal), body.name);
    return { id: workspace.id, name: workspace.name };
  }
}
