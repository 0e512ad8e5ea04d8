import { Injectable } from '@nestjs/common';
import { AgentNotFoundError } from './errors/agent-not-found.error';
import { ResolvedLocation } from '../locations/location.types';

/** opencode's built-in agents that a session may select (the hidden internal ones are not selectable). */
const BUILT_IN = new Set(['build', 'plan', 'general', 'explore']);

/**
 * Which agents a session may switch to. The agents issue replaces this check with its AgentsService
 * (custom agents per location, disabled ones refused).
 */
@Injectable()
export class SessionAgents {
  async ensureSelectable(agentID: string, _location: ResolvedLocation): Promise<void> {
    if (!BUILT_IN.has(agentID)) throw new AgentNotFoundError(agentID);
  }
}
