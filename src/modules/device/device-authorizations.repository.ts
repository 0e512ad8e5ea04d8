import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { execute } from '@/database/execute';
import { Transaction } from '@/database/transaction';
import { DeviceAuthorizationEntity } from './device-authorization.entity';

/** The `device_authorization` table: device sign-in requests (RFC 8628) by their device and user codes. */
@Injectable()
export class DeviceAuthorizationsRepository {
  constructor(
    @InjectRepository(DeviceAuthorizationEntity)
    private readonly authorizations: Repository<DeviceAuthorizationEntity>,
  ) {}

  /** Removes the requests that expired before `before`. */
  async removeExpiredBefore(before: Date): Promise<void> {
    await this.authorizations.query(`DELETE FROM device_authorization WHERE expires_at < $1`, [before]);
  }

  async add(authorization: DeviceAuthorizationEntity): Promise<void> {
    await this.authorizations.insert(authorization);
  }

  /** Adds the request; false when the statement fails (a pending request holds its user code already). */
  async tryAdd(authorization: DeviceAuthorizationEntity): Promise<boolean> {
    try {
      await this.add(authorization);
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError) return false;
      throw error;
    }
  }

  findByDeviceCodeHash(deviceCodeHash: string): Promise<DeviceAuthorizationEntity | null> {
    return this.authorizations.findOneBy({ deviceCodeHash });
  }

  /** The pending request with this user code hash, expired or not. */
  findPendingByUserCodeHash(userCodeHash: string): Promise<DeviceAuthorizationEntity | null> {
    return this.authorizations.findOneBy({ userCodeHash, status: 'pending' });
  }

  /**
   * Records a poll at `now`, lengthening the interval by `step` seconds when the previous poll came sooner than
   * it; answers the interval after that (undefined when the request is gone). One UPDATE.
   */
  async recordPoll(id: string, now: Date, step: number): Promise<number | undefined> {
    const { rows } = await execute<{ poll_interval: number }>(
      this.authorizations.manager,
      `UPDATE device_authorization
          SET poll_interval = CASE WHEN last_polled_at > $2::timestamptz - make_interval(secs => poll_interval)
                                   THEN poll_interval + $3 ELSE poll_interval END,
              last_polled_at = $2
        WHERE id = $1
        RETURNING poll_interval`,
      [id, now, step],
    );
    return rows[0]?.poll_interval;
  }

  /** Marks the approved, unexpired request redeemed in one atomic UPDATE; undefined unless it was. */
  async redeemApproved(
    tx: Transaction,
    deviceCodeHash: string,
    clientId: string,
    now: Date,
  ): Promise<{ user_id: string; workspace_id: string | null } | undefined> {
    const { rows } = await execute<{ user_id: string; workspace_id: string | null }>(
      tx,
      `UPDATE device_authorization SET status = 'redeemed'
        WHERE device_code_hash = $1 AND client_id = $2 AND status = 'approved' AND expires_at > $3
        RETURNING user_id, workspace_id`,
      [deviceCodeHash, clientId, now],
    );
    return rows[0];
  }

  /** Records the person's decision on the pending, unexpired request in one atomic UPDATE; its id, else undefined. */
  async decide(
    tx: Transaction,
    userCodeHash: string,
    decision: { status: 'approved' | 'denied'; userId: string; workspaceId: string | null; at: Date },
  ): Promise<string | undefined> {
    const { rows } = await execute<{ id: string }>(
      tx,
      `UPDATE device_authorization SET status = $2, user_id = $3, workspace_id = $4, decided_at = $5
        WHERE user_code_hash = $1 AND status = 'pending' AND expires_at > $5
        RETURNING id`,
      [userCodeHash, decision.status, decision.userId, decision.workspaceId, decision.at],
    );
    return rows[0]?.id;
  }
}
