import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { InvalidRequestError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { SessionsService } from '../sessions/sessions.service';
import {
  V1TuiAppendPromptDto,
  V1TuiExecuteCommandDto,
  V1TuiSelectSessionDto,
  V1TuiShowToastDto,
} from './dto/v1-tui.dto';
import './v1-tui.events';

/** A request an editor made of the TUI, as `GET /tui/control/next` hands it over. */
export interface TuiRequest {
  path: string;
  body: unknown;
}

/** The requests (and the TUI's answers) kept for a TUI that is not reading: the oldest go first. */
const KEPT = 100;

/** The TUI's old command names (opencode's keybind ids), as the TUI knows them now. */
const OLD_COMMANDS: Record<string, string> = {
  session_new: 'session.new',
  session_list: 'session.list',
  session_share: 'session.share',
  session_unshare: 'session.unshare',
  session_interrupt: 'session.interrupt',
  session_compact: 'session.compact',
  session_export: 'session.export',
  messages_page_up: 'session.page.up',
  messages_page_down: 'session.page.down',
  messages_first: 'session.first',
  messages_last: 'session.last',
  messages_undo: 'session.undo',
  messages_redo: 'session.redo',
  agent_cycle: 'agent.cycle',
  agent_list: 'agent.list',
  model_list: 'model.list',
  help_show: 'help.show',
  theme_list: 'theme.switch',
  prompt_submit: 'prompt.submit',
  prompt_clear: 'prompt.clear',
  editor_open: 'prompt.editor',
};

/** The four events a publish may carry, each with the body its route takes. */
const PUBLISHED = {
  'tui.prompt.append': V1TuiAppendPromptDto,
  'tui.command.execute': V1TuiExecuteCommandDto,
  'tui.toast.show': V1TuiShowToastDto,
  'tui.session.select': V1TuiSelectSessionDto,
} as const;

/**
 * What editor integrations ask of a TUI attached to this server (`/tui/*`, opencode's control routes). Each ask
 * is published as opencode's TUI event (`tui.prompt.append`, `tui.command.execute`, …) on the event streams the
 * attached TUI reads, and queued as `{ path, body }` for a client that reads `GET /tui/control/next` instead;
 * its answers (`POST /tui/control/response`) are kept the same way.
 */
@Injectable()
export class V1TuiService {
  private readonly requests: TuiRequest[] = [];
  private readonly waiting: Array<(request: TuiRequest) => void> = [];
  private readonly responses: unknown[] = [];

  constructor(
    private readonly events: EventsPublisher,
    private readonly sessions: SessionsService,
  ) {}

  appendPrompt(text: string, directory?: string): true {
    return this.ask('/tui/append-prompt', { text }, directory, 'tui.prompt.append', { text });
  }

  /** open-help, open-sessions, submit-prompt, …: a TUI command (opencode's open-themes opens the sessions too). */
  command(path: string, command: string, directory?: string): true {
    return this.ask(path, {}, directory, 'tui.command.execute', { command });
  }

  executeCommand(command: string, directory?: string): true {
    const name = OLD_COMMANDS[command] ?? command;
    return this.ask('/tui/execute-command', { command }, directory, 'tui.command.execute', { command: name });
  }

  showToast(toast: V1TuiShowToastDto, directory?: string): true {
    return this.ask('/tui/show-toast', { ...toast }, directory, 'tui.toast.show', { ...toast });
  }

  async selectSession(sessionID: string, directory?: string): Promise<true> {
    await this.sessions.get(sessionID); // a session that does not exist is a 404
    return this.ask('/tui/select-session', { sessionID }, directory, 'tui.session.select', { sessionID });
  }

  async publish(type: keyof typeof PUBLISHED, properties: Record<string, unknown>, directory?: string) {
    const dtoClass: new () => object = PUBLISHED[type];
    const dto = plainToInstance(dtoClass, properties);
    const [problem] = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
    if (problem) {
      const why = Object.values(problem.constraints ?? {})[0] ?? 'is not valid';
      throw new InvalidRequestError(
        `properties.${problem.property}: ${why}`,
        `properties.${problem.property}`,
      );
    }
    if (type === 'tui.session.select') await this.sessions.get((dto as V1TuiSelectSessionDto).sessionID);
    const data = type === 'tui.command.execute' ? this.renamed(dto as V1TuiExecuteCommandDto) : { ...dto };
    this.events.publish(type, data as never, directory ? { directory } : undefined);
    this.queue({ path: '/tui/publish', body: { type, properties } });
    return true as const;
  }

  /** The next request for the TUI: at once when one is queued, else when the next one comes. */
  next(signal?: AbortSignal): Promise<TuiRequest | undefined> {
    const queued = this.requests.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => {
      const take = (request: TuiRequest) => resolve(request);
      this.waiting.push(take);
      signal?.addEventListener('abort', () => {
        const at = this.waiting.indexOf(take);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(undefined);
      });
    });
  }

  respond(body: unknown): true {
    this.responses.push(body);
    if (this.responses.length > KEPT) this.responses.shift();
    return true;
  }

  private renamed(dto: V1TuiExecuteCommandDto): { command: string } {
    return { command: OLD_COMMANDS[dto.command] ?? dto.command };
  }

  private ask<K extends keyof typeof PUBLISHED>(
    path: string,
    body: unknown,
    directory: string | undefined,
    type: K,
    data: Record<string, unknown>,
  ): true {
    this.events.publish(type, data as never, directory ? { directory } : undefined);
    this.queue({ path, body });
    return true;
  }

  private queue(request: TuiRequest): void {
    const waiting = this.waiting.shift();
    if (waiting) return waiting(request);
    this.requests.push(request);
    if (this.requests.length > KEPT) this.requests.shift();
  }
}
