import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { timingSafeEqual } from 'node:crypto';
import { register } from 'prom-client';
import { Public } from '@/common/auth';
import { UnauthorizedError } from '@/common/errors';
import { HttpReply, HttpRequest } from '@/common/http/http';
import { appConfig, AppConfig } from '@/config/app.config';

/**
 * `GET /metrics` in Prometheus' text format. Served only when `OUTPOST_METRICS_TOKEN` is set, and only to a
 * scraper that presents it as `Authorization: Bearer <token>`: never public by default.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {}

  @Public()
  @Get()
  async scrape(@Req() request: HttpRequest, @Res() reply: HttpReply): Promise<void> {
    const token = this.config.metricsToken;
    if (!token) throw new NotFoundException();
    const presented = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new UnauthorizedError('Present the metrics token as a Bearer credential');
    }
    void reply
      .header('content-type', register.contentType)
      .header('cache-control', 'no-store')
      .send(await register.metrics());
  }
}
