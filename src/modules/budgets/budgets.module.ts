import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { RequestLogController } from './request-log.controller';
import { requestLogConfig } from './request-log.config';
import { RequestLogEntity } from './request-log.entity';
import { RequestLog } from './request-log';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { BudgetsController } from './budgets.controller';
import { UsageController } from './usage.controller';
import { BudgetLimits } from './budget-limits';
import { BudgetHoldEntity } from './budget-hold.entity';
import { GatewayNodeEntity } from './gateway-node.entity';
import { UsageJournalEntity } from './usage-journal.entity';
import { HoldLease } from './hold-lease';
import { KeyBudgets } from './key-budgets';
import { BudgetsService } from './budgets.service';
import { MemberBudgetEntity } from './member-budget.entity';
import { MemberSpendEntity } from './member-spend.entity';
import { UsageEntity } from './usage.entity';
import { UsageLedger } from './usage-ledger';
import { WorkspaceBudgetEntity } from './workspace-budget.entity';
import { WorkspaceSpendEntity } from './workspace-spend.entity';
import { BudgetsRepository } from './budgets.repository';
import { GatewayNodesRepository } from './gateway-nodes.repository';
import { RequestLogRepository } from './request-log.repository';
import { SpendRepository } from './spend.repository';
import { UsageRepository } from './usage.repository';

/** Monthly budgets per member and service account, and the usage they are spent on. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      MemberBudgetEntity,
      WorkspaceBudgetEntity,
      MemberSpendEntity,
      UsageEntity,
      WorkspaceSpendEntity,
      GatewayNodeEntity,
      UsageJournalEntity,
      BudgetHoldEntity,
      RequestLogEntity,
    ]),
    ConfigModule.forFeature(requestLogConfig),
    AuditModule,
    WorkspacesModule,
  ],
  controllers: [BudgetsController, UsageController, RequestLogController],
  providers: [
    BudgetsService,
    BudgetLimits,
    UsageLedger,
    HoldLease,
    KeyBudgets,
    RequestLog,
    BudgetsRepository,
    SpendRepository,
    UsageRepository,
    GatewayNodesRepository,
    RequestLogRepository,
  ],
  exports: [BudgetsService, UsageLedger, HoldLease, KeyBudgets, RequestLog],
})
export class BudgetsModule {}
