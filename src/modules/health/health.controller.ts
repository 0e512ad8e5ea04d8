import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../../common/auth';
import { HttpReply } from '../../common/http/http';

/** Liveness and readiness for load balancers and docker-compose: public, cheap, never cached. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Public()
  @Get()
  @HttpCode(200)
  async check(
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<{ status: string; database: string }> {
    response.header('Cache-Control', 'no-store');
    try {
      await this.health.check([() => this.database.pingCheck('database', { timeout: 2_000 })]);
      return { status: 'ok', database: 'up' };
    } catch {
      response.status(503);
      return { status: 'error', database: 'down' };
    }
  }
}
