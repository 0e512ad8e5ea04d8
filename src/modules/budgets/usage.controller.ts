import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { BudgetsService } from './budgets.service';
import { UsageQueryDto, UsageReportDto } from './dto/usage.dto';

/** What the workspace spent through the inference gateway, summed from the usage rows in SQL. */
@ApiTags('console: budgets')
@Controller('console/api/orgs/:org/usage')
@OrgRole('admin')
export class UsageController {
  constructor(private readonly budgets: BudgetsService) {}

  @Get()
  @ApiOperation({ operationId: 'usage.report', summary: 'Spend and tokens by member, key, model or UTC day' })
  report(
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Query() query: UsageQueryDto,
  ): Promise<UsageReportDto> {
    return this.budgets.usageReport(principal.workspaceId!, query);
  }
}
