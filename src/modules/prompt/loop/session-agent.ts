import { AgentNotFoundError } from '../../agents/agents.errors';
import { AgentInfo } from '../../agents/agent.types';
import { AgentsService } from '../../agents/agents.service';
import { ResolvedLocation } from '../../locations/location.types';

/** The session's agent; none, or one removed since it was selected, falls back to the location's default. */
export async function sessionAgent(
  agents: AgentsService,
  location: ResolvedLocation,
  agentID: string | undefined,
): Promise<AgentInfo> {
  try {
    return agentID ? await agents.get(location, agentID) : await agents.defaultAgent(location);
  } catch (error) {
    if (error instanceof AgentNotFoundError) return agents.defaultAgent(location);
    throw error;
  }
}
