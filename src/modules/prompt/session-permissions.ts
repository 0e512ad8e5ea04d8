import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { ascendingId } from '@/common/ids';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { AgentsService } from '../agents/agents.service';
import { LocationsService } from '../locations/locations.service';
import { decide } from '../runtime/permissions/evaluate';
import { PermissionRequestNotFoundError } from '../runtime/permissions/permissions.errors';
import { PermissionRequestsService } from '../runtime/permissions/permission-requests.service';
import { PermissionEffect, PermissionRequest } from '../runtime/permissions/permission.types';
import { SessionsActivity } from '../sessions/sessions-activity';
import { SessionsService } from '../sessions/sessions.service';
import { sessionAgent } from './loop/session-agent';

export interface PermissionCheckInput {
  action: string;
  resources: string[];
  save?: string[];
  metadata?: Record<string, unknown>;
}

/**
 * v2 session operations around a session's permissions and drain that clients call directly: ask the session's
 * rules about an action (`session.permission.create`), read one pending request, wait until the session is idle.
 */
@Injectable()
export class SessionPermissions {
  constructor(
    private readonly sessions: SessionsService,
    private readonly activity: SessionsActivity,
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly permissions: PermissionRequestsService,
    private readonly emitter: EventEmitter2,
  ) {}

  /**
   * The effect of the action on the resources under the session's agent and session rules. `ask` opens a
   * pending request (announced as `permission.asked`, answered like the loop's); an `always` answer adds its
   * rules to the session.
   */
  async create(
    sessionID: string,
    input: PermissionCheckInput,
  ): Promise<{ id: string; effect: PermissionEffect }> {
    const session = await this.sessions.get(sessionID);
    const location = await this.locations.resolve(session.location.directory);
    const agent = await sessionAgent(this.agents, location, session.agent);
    const checks = input.resources.map((resource) => ({ action: input.action, resource }));
    const decision = decide(checks, agent.permissions, session.permissions ?? []);
    if (decision.effect !== 'ask') return { id: ascendingId('per'), effect: decision.effect };
    const { request, answer } = this.permissions.ask({
      sessionID,
      permission: input.action,
      patterns: input.resources,
      always: input.save ?? input.resources,
      metadata: input.metadata ?? {},
      location: session.location,
    });
    void answer.then(async (settled) => {
      if (settled.rules.length > 0)
        await this.sessions.addPermissions(sessionID, settled.rules).catch(() => {});
    });
    return { id: request.id, effect: 'ask' };
  }

  async get(sessionID: string, requestID: string): Promise<PermissionRequest> {
    await this.sessions.get(sessionID);
    const found = this.permissions.list(sessionID).find((request) => request.id === requestID);
    if (!found) throw new PermissionRequestNotFoundError(requestID);
    return found;
  }

  /** Resolves once the session has no running drain in this process (at once when it has none). */
  async wait(sessionID: string): Promise<void> {
    await this.sessions.get(sessionID);
    await new Promise<void>((resolve) => {
      const listener = (event: OutpostEvent) => {
        if (event.type === 'session.idle' && (event.data as { sessionID: string }).sessionID === sessionID)
          done();
      };
      const done = () => {
        this.emitter.off(PUBLISHED_EVENT, listener);
        resolve();
      };
      this.emitter.on(PUBLISHED_EVENT, listener);
      if (!this.activity.active()[sessionID]) done();
    });
  }
}
