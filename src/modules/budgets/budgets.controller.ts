import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { actorOf } from '../console-access/actor';
import { OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { BudgetsService } from './budgets.service';
import {
  BudgetMemberDto,
  DefaultBudgetDto,
  MemberParamsDto,
  SetDefaultBudgetDto,
  SetMemberBudgetDto,
  SetWorkspaceBudgetDto,
  WorkspaceBudgetDto,
} from './dto/budget.dto';

/**
 * Monthly budgets of the workspace's members: an All key, or an owner or admin (user token or cookie with
 * `x-org-id`). Members are addressed by `usr_…` (people) or `sa_…` (service accounts).
 */
@ApiTags('console: budgets')
@Controller('console/api/v1/budgets')
@OrgRole('admin')
export class BudgetsController {
  constructor(private readonly budgets: BudgetsService) {}

  @Get('members')
  @ApiOperation({
    operationId: 'budget.members',
    summary: 'Every member and service account, this UTC month',
  })
  async members(@CurrentPrincipal() principal: ConsolePrincipal): Promise<BudgetMemberDto[]> {
    return (await this.budgets.list(principal.workspaceId!)).map((entry) => ({
      user_id: entry.member.userId,
      email: entry.member.email,
      name: entry.member.name,
      kind: entry.member.kind,
      limit_micro_cents: entry.limitMicroCents?.toString() ?? null,
      spent_micro_cents: entry.spentMicroCents.toString(),
      exceeded: entry.exceeded,
      resets_at: entry.resetsAt.toISOString(),
      source: entry.source,
      updated_at: entry.updatedAt?.toISOString() ?? null,
    }));
  }

  @Put('members/:user_id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'budget.set',
    summary: 'Set a member’s monthly budget in dollars (idempotent)',
  })
  @ApiErrorResponse(404, 'NotFound', 'not a member or service account of this workspace')
  async set(
    @Param() params: MemberParamsDto,
    @Body() body: SetMemberBudgetDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.budgets.setMember(
      actorOf(principal),
      principal.workspaceId!,
      params.user_id,
      body.budget_dollars,
    );
  }

  @Delete('members/:user_id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'budget.clear',
    summary: 'Remove a member’s own budget: back to the workspace default or unlimited (idempotent)',
  })
  @ApiErrorResponse(404, 'NotFound', 'not a member or service account of this workspace')
  async clear(
    @Param() params: MemberParamsDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.budgets.clearMember(actorOf(principal), principal.workspaceId!, params.user_id);
  }

  @Get('default')
  @ApiOperation({ operationId: 'budget.default.get', summary: 'The workspace default monthly budget' })
  async getDefault(@CurrentPrincipal() principal: ConsolePrincipal): Promise<DefaultBudgetDto> {
    const { limit, updatedAt } = await this.budgets.defaultLimit(principal.workspaceId!);
    return { limit_micro_cents: limit, updated_at: updatedAt?.toISOString() ?? null };
  }

  @Put('default')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'budget.default.set',
    summary: 'Set the workspace default monthly budget in dollars, or null for unlimited',
  })
  async setDefault(
    @Body() body: SetDefaultBudgetDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.budgets.setDefault(actorOf(principal), principal.workspaceId!, body.budget_dollars);
  }

  @Get('workspace')
  @ApiOperation({
    operationId: 'budget.workspace.get',
    summary: "The whole workspace's monthly budget and this month's spend",
  })
  async getWorkspace(@CurrentPrincipal() principal: ConsolePrincipal): Promise<WorkspaceBudgetDto> {
    const status = await this.budgets.workspaceStatus(principal.workspaceId!);
    return {
      limit_micro_cents: status.limitMicroCents?.toString() ?? null,
      spent_micro_cents: status.spentMicroCents.toString(),
      exceeded: status.exceeded,
      resets_at: status.resetsAt.toISOString(),
      updated_at: status.updatedAt?.toISOString() ?? null,
    };
  }

  @Put('workspace')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'budget.workspace.set',
    summary: 'Set what the whole workspace may spend a month in dollars, or null for unlimited',
  })
  async setWorkspace(
    @Body() body: SetWorkspaceBudgetDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<void> {
    await this.budgets.setWorkspaceLimit(actorOf(principal), principal.workspaceId!, body.budget_dollars);
  }
}
