import { Injectable } from '@nestjs/common';

/**
 * Whether this process wants new traffic. On SIGTERM it turns not-ready first (`GET /health/ready` answers 503) and
 * keeps serving for `OUTPOST_DRAIN_DELAY_MS`, so a load balancer moves away before the server stops accepting.
 */
@Injectable()
export class Readiness {
  draining = false;
}
