import pg from 'pg';
import { markDatabaseUnavailable } from '../common/errors/database-unavailable';

type Done = (release?: unknown) => void;
type Connected = (error: Error | undefined, client: pg.PoolClient | undefined, done: Done) => void;

/**
 * pg's pool, marking the failures that mean no working connection could be had, so the error filter answers them
 * 503 by what happened rather than by a list of codes: any failure to get a connection (refused, "not currently
 * accepting connections", starting up, too many clients, the wait timed out, the pool ended), and the error a
 * connection reports when it breaks under a statement (its socket failed or closed).
 */
export class WatchedPool extends pg.Pool {
  constructor(options?: pg.PoolConfig) {
    super(options);
    // pg's client emits a broken connection's error before the statements it fails see it (on the next tick).
    this.on('connect', (client) => client.on('error', markDatabaseUnavailable));
  }

  connect(): Promise<pg.PoolClient>;
  connect(callback: Connected): void;
  connect(callback?: Connected): Promise<pg.PoolClient> | void {
    if (!callback) {
      return new Promise((resolve, reject) =>
        this.connect((error, client) => (error ? reject(error) : resolve(client!))),
      );
    }
    super.connect((error, client, done) => callback(markDatabaseUnavailable(error), client, done));
  }
}

/** pg as TypeORM's driver, with the watched pool. */
export const watchedPg = { ...pg, Pool: WatchedPool };
