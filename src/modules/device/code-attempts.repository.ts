import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CodeAttemptEntity } from './code-attempt.entity';

/** The `device_code_attempt` table: each person's wrong user codes in their current window. */
@Injectable()
export class CodeAttemptsRepository {
  constructor(
    @InjectRepository(CodeAttemptEntity) private readonly attempts: Repository<CodeAttemptEntity>,
  ) {}

  /** The person's current window and wrong codes in it; undefined when they have entered none. */
  async ofUser(userId: string): Promise<{ window_start: Date; failures: number } | undefined> {
    const [row] = (await this.attempts.query(
      `SELECT window_start, failures FROM device_code_attempt WHERE user_id = $1`,
      [userId],
    )) as Array<{ window_start: Date; failures: number }>;
    return row;
  }

  /** Counts a wrong code at `now`, starting a new window when the current one started at or before `windowEnded`. */
  async recordFailure(userId: string, now: Date, windowEnded: Date): Promise<void> {
    await this.attempts.query(
      `INSERT INTO device_code_attempt (user_id, window_start, failures) VALUES ($1, $2, 1)
       ON CONFLICT (user_id) DO UPDATE SET
         failures = CASE WHEN device_code_attempt.window_start <= $3 THEN 1 ELSE device_code_attempt.failures + 1 END,
         window_start = CASE WHEN device_code_attempt.window_start <= $3 THEN $2 ELSE device_code_attempt.window_start END`,
      [userId, now, windowEnded],
    );
  }
}
