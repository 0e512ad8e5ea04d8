import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { HttpReply } from '@/common/http/http';
import { OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal, roleAtLeast } from '../console-access/console-principal';
import { RequestLogPageDto, RequestLogQueryDto, RequestLogRowDto } from './dto/request-log.dto';
import { RequestLogEntity } from './request-log.entity';
import { RequestLog } from './request-log';
import { requestLogCsv } from './request-log-csv';
import { idsOf, withNames } from './request-log-names';

function rowView(row: RequestLogEntity): RequestLogRowDto {
  return {
    id: row.id,
    request_id: row.requestId,
    time: row.createdAt.toISOString(),
    member: row.memberId,
    key: row.keyId,
    route: row.route,
    model: row.model,
    served_by: row.servedBy,
    status: row.status,
    outcome: row.outcome,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cost_micro_cents: String(row.costMicroCents),
    duration_ms: row.durationMs,
    ttfb_ms: row.ttfbMs,
  };
}

/** The gateway's calls one by one, newest first. */
@ApiTags('console: budgets')
@Controller('console/api/orgs/:org/usage/requests')
export class RequestLogController {
  constructor(private readonly log: RequestLog) {}

  @Get()
  @OrgRole('member')
  @ApiOperation({
    operationId: 'usage.requests',
    summary:
      "One row per gateway call (refusals included), newest first, filtered and paged; owners, admins and All keys see every member's, members their own; format=csv for a file",
  })
  @ApiExtraModels(RequestLogPageDto)
  @ApiOkResponse({
    description: 'A page of rows (JSON), or the rows as a CSV file (format=csv)',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(RequestLogPageDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  async list(
    @Query() query: RequestLogQueryDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Res({ passthrough: true }) reply: HttpReply,
  ): Promise<RequestLogPageDto | string> {
    const limit = query.limit ?? 100;
    const everyone = roleAtLeast(principal.role, 'admin');
    const memberId = everyone ? query.member : (principal.serviceAccountId ?? principal.userId!);
    const rows = await this.log.page(
      principal.workspaceId!,
      {
        memberId,
        keyId: query.key,
        model: query.model,
        status: query.status,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
      },
      limit,
      query.cursor,
    );
    const bare = rows.map(rowView);
    const data = withNames(bare, await this.log.names(principal.workspaceId!, idsOf(bare)));
    if (query.format === 'csv') {
      void reply.header('content-type', 'text/csv; charset=utf-8');
      void reply.header('content-disposition', 'attachment; filename="requests.csv"');
      return requestLogCsv(data);
    }
    return { data, next_cursor: rows.length === limit ? rows[rows.length - 1].id : null };
  }
}
