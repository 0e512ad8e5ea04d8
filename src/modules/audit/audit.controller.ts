import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { AuditService } from './audit.service';
import { AuditPageDto } from './dto/audit-entry.dto';
import { AuditQueryDto } from './dto/audit-query.dto';

@ApiTags('console: audit')
@Controller('console/api/orgs/:org/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @OrgRole('admin')
  @ApiOperation({
    operationId: 'audit.list',
    summary: 'The workspace audit log, newest first (owners and admins), filtered by actor and action',
  })
  async list(
    @Param('org') _org: string,
    @Query() query: AuditQueryDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
  ): Promise<AuditPageDto> {
    const page = await this.audit.list(principal.workspaceId!, query.cursor, query.limit ?? 50, {
      actorId: query.actor,
      action: query.action,
    });
    return {
      entries: page.entries.map((entry) => ({
        id: entry.id,
        time: entry.createdAt.toISOString(),
        actor: { type: entry.actorType, id: entry.actorId },
        action: entry.action,
        target: { type: entry.targetType, id: entry.targetId },
        details: entry.details,
        source_address: entry.sourceAddress,
      })),
      next_cursor: page.nextCursor,
    };
  }
}
