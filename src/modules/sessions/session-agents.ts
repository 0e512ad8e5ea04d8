import { Injectable } from '@nestjs/common';
import { AgentsService } from '../agents/agents.service';
import { ResolvedLocation } from '../locations/location.types';

/** Which agents a session may select: those the location has (unknown or disabled: `AgentNotFoundError`). */
@Injectable()
export class SessionAgents {
  constructor(private readonly agents: AgentsService) {}

  async ensureSelectable(agentID: string, location: ResolvedLocation): Promise<void> {
    await this.agents.get(location, agentID);
  }
}
