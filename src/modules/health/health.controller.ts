import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '@/common/auth';
import { HttpReply } from '@/common/http/http';
import { DatabaseHealth } from '@/database/database-health';
import { Readiness } from './readiness';

/** Liveness and readiness for load balancers, Kubernetes and docker-compose: public, cheap, never cached. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly readiness: Readiness,
    private readonly db: DatabaseHealth,
  ) {}

  /** The process answers and its database too (the original probe, kept for compose files and monitors). */
  @Public()
  @Get()
  @HttpCode(200)
  async check(
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<{ status: string; database: string }> {
    response.header('Cache-Control', 'no-store');
    if (await this.databaseUp()) return { status: 'ok', database: 'up' };
    response.status(503);
    return { status: 'error', database: 'down' };
  }

  /** Liveness: the process answers (restart it when this fails). */
  @Public()
  @Get('live')
  live(@Res({ passthrough: true }) response: HttpReply): { status: string } {
    response.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  }

  /** Readiness: the database answers, every migration this build knows is applied, and the process is not draining. */
  @Public()
  @Get('ready')
  async ready(
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<{ status: string; database: string; migrations: string; draining: boolean }> {
    response.header('Cache-Control', 'no-store');
    const database = await this.databaseUp();
    const pending = database ? await this.db.migrationsPending() : true;
    const ready = database && !pending && !this.readiness.draining;
    if (!ready) response.status(503);
    return {
      status: ready ? 'ok' : 'error',
      database: database ? 'up' : 'down',
      migrations: pending ? 'pending' : 'applied',
      draining: this.readiness.draining,
    };
  }

  private async databaseUp(): Promise<boolean> {
    try {
      await this.health.check([() => this.database.pingCheck('database', { timeout: 2_000 })]);
      return true;
    } catch {
      return false;
    }
  }
}
