import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ConflictError, ForbiddenError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { AgentsService } from '../../agents/agents.service';
import { LocationsService } from '../../locations/locations.service';
import { decide } from '../../runtime/permissions/evaluate';
import { ProvidersService } from '../../runtime/providers/providers.service';
import { bashTool } from '../../runtime/tools/bash.tool';
import { ToolAbortedError, ToolError } from '../../runtime/tools/tool.errors';
import { ShellMessage } from '../../sessions/session-message.types';
import { ModelRef } from '../../sessions/session.types';
import { SessionsActivity } from '../../sessions/sessions-activity';
import { SessionsService } from '../../sessions/sessions.service';
import { chooseModel } from '../loop/model-choice';
import { sessionAgent } from '../loop/session-agent';

export interface ShellInput {
  command: string;
  agent?: string;
  model?: ModelRef;
}

/**
 * A command the person runs in the session's location (the TUI's `!cmd`): run as the bash tool runs the
 * model's commands (the location as working directory, the server's secrets out of the environment, its
 * time-out and output cap), under the same rules: a command the agent's or the session's rules deny is refused.
 * A rule that would ask is not asked again: the person typed the command. The command and its output are
 * recorded as a `shell` message, which the model sees at its next step.
 */
@Injectable()
export class SessionShell {
  constructor(
    private readonly sessions: SessionsService,
    private readonly activity: SessionsActivity,
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly providers: ProvidersService,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {}

  async run(sessionID: string, input: ShellInput): Promise<ShellMessage> {
    const session = await this.sessions.get(sessionID);
    if (this.activity.active()[sessionID]) {
      throw new ConflictError(`Session ${sessionID} is running; wait until it is idle`, sessionID);
    }
    const location = await this.locations.resolve(session.location.directory);
    const agent = await sessionAgent(this.agents, location, input.agent ?? session.agent);
    const registry = await this.providers.forLocation(location);
    const model = chooseModel(registry, location.directory, input.model ?? session.model, agent.model);
    const decision = decide(
      bashTool.permissions({ command: input.command }, location.directory),
      agent.permissions,
      session.permissions ?? [],
    );
    if (decision.effect === 'deny') {
      throw new ForbiddenError(`Permission denied: bash ${input.command} is not allowed in this session`);
    }

    const created = this.clock.now();
    const { output, exit, status } = await runCommand(input.command, location.directory);
    const message: ShellMessage = {
      id: ascendingId('msg', created),
      answerID: ascendingId('msg', created),
      type: 'shell',
      shellID: ascendingId('call', created),
      command: input.command,
      status,
      ...(exit === null ? {} : { exit }),
      output: { output, cursor: output.length, size: output.length, truncated: false },
      agent: agent.id,
      model,
      time: { created, completed: this.clock.now() },
    };
    await this.sessions.appendMessage(sessionID, message);
    this.events.publish('session.message.created', { sessionID, message }, session.location);
    return message;
  }
}

export async function runCommand(
  command: string,
  directory: string,
): Promise<{ output: string; exit: number | null; status: ShellMessage['status'] }> {
  try {
    const result = await bashTool.run({ command }, { directory, signal: new AbortController().signal });
    const metadata = result.metadata as { exit: number | null; timedOut: boolean };
    return {
      output: result.output,
      exit: metadata.exit,
      status: metadata.timedOut ? 'timeout' : metadata.exit === null ? 'killed' : 'exited',
    };
  } catch (error) {
    if (error instanceof ToolAbortedError)
      return { output: error.output ?? '', exit: null, status: 'killed' };
    if (error instanceof ToolError) return { output: error.message, exit: null, status: 'killed' };
    throw error;
  }
}
