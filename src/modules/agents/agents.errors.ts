import { NotFoundError } from '@/common/errors';

export class AgentNotFoundError extends NotFoundError {
  constructor(agentID: string) {
    super(`Agent not found: ${agentID}`, { agentID });
  }
}
