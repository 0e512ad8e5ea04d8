import { EventEmitter2 } from '@nestjs/event-emitter';
import { OutpostEvent, PUBLISHED_EVENT } from '../../src/common/events';
import { projectDir } from './project-dir';
import { ScriptedModelServer } from './scripted-model-server';
import { basic, createTestApp, TestApp, TestAppOptions } from './test-app';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every event the app publishes from now on, with a way to wait for one. */
export class EventLog {
  readonly events: OutpostEvent[] = [];
  private readonly waiters: Array<() => void> = [];

  constructor(t: TestApp) {
    t.app.get(EventEmitter2).on(PUBLISHED_EVENT, (event: OutpostEvent) => {
      this.events.push(event);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves with the first event (from `from` on) of the type that satisfies `match`. */
  next<T = Record<string, unknown>>(
    type: string,
    match: (data: T) => boolean = () => true,
    from = 0,
  ): Promise<OutpostEvent & { data: T }> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.events.slice(from).find((e) => e.type === type && match(e.data as unknown as T));
        if (found) resolve(found as OutpostEvent & { data: T });
        else this.waiters.push(check);
      };
      check();
    });
  }

  /** The session's next `session.idle` (from event `from` on): its run has ended. */
  idle(sessionID: string, from = 0) {
    return this.next<Data>('session.idle', (d) => d.sessionID === sessionID, from);
  }

  /** The session's next `permission.asked` (from event `from` on). */
  asked(sessionID: string, from = 0) {
    return this.next<Data>('permission.asked', (d) => d.sessionID === sessionID, from);
  }

  /** The session's events of these types, in order. */
  of(sessionID: string, types: string[]): OutpostEvent[] {
    return this.events.filter(
      (e) => types.includes(e.type) && (e.data as { sessionID?: string }).sessionID === sessionID,
    );
  }
}

/** The config of a project whose provider `scripted` points at the scripted model server. */
export function providerConfig(server: ScriptedModelServer, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    provider: {
      scripted: {
        package: 'aisdk:@ai-sdk/openai-compatible',
        settings: { baseURL: server.baseURL, apiKey: 'sk-scripted' },
        models: {
          small: { name: 'Small', cost: { input: 1, output: 2 } },
          large: { name: 'Large', cost: { input: 3, output: 6 } },
        },
      },
    },
    ...extra,
  });
}

/** A project configured for the scripted model, holding `files`. */
export function scriptedProject(server: ScriptedModelServer, files: Record<string, string> = {}): string {
  return projectDir({ 'outpost.json': providerConfig(server), ...files });
}

/** Small HTTP helpers for one app. */
export function api(t: TestApp) {
  const auth = basic();
  return {
    createSession: async (directory: string, extra: Record<string, unknown> = {}): Promise<string> => {
      const res = await t.http
        .post('/api/session')
        .set('authorization', auth)
        .send({ location: { directory }, model: { providerID: 'scripted', id: 'small' }, ...extra });
      if (res.status !== 200) throw new Error(`create session: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.id as string;
    },
    prompt: (sessionID: string, body: Record<string, unknown>) =>
      t.http.post(`/api/session/${sessionID}/prompt`).set('authorization', auth).send(body),
    get: (path: string) => t.http.get(path).set('authorization', auth),
    post: (path: string, body?: Record<string, unknown>) =>
      t.http
        .post(path)
        .set('authorization', auth)
        .send(body ?? {}),
    reply: (sessionID: string, requestID: string, answer: string) =>
      t.http
        .post(`/api/session/${sessionID}/permission/${requestID}/reply`)
        .set('authorization', auth)
        .send({ reply: answer }),
    messages: async (sessionID: string) => {
      const res = await t.http.get(`/api/session/${sessionID}/message?limit=1000`).set('authorization', auth);
      return res.body.data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    },
    session: async (sessionID: string) =>
      (await t.http.get(`/api/session/${sessionID}`).set('authorization', auth)).body.data as Record<
        string,
        any // eslint-disable-line @typescript-eslint/no-explicit-any
      >,
  };
}

export type Api = ReturnType<typeof api>;

/** What a prompt suite runs against: an app, the scripted model it talks to, its events and HTTP helpers. */
export interface ScriptedSetup {
  t: TestApp;
  server: ScriptedModelServer;
  log: EventLog;
  a: Api;
}

/** Starts the scripted model server and an app; stop both with `stopScripted`. */
export async function startScripted(options: TestAppOptions = {}): Promise<ScriptedSetup> {
  const server = await ScriptedModelServer.start();
  const t = await createTestApp(options);
  return { t, server, log: new EventLog(t), a: api(t) };
}

export async function stopScripted({ t, server }: Pick<ScriptedSetup, 't' | 'server'>): Promise<void> {
  await t.close();
  await server.close();
}

export const FAST_RETRIES = {
  OUTPOST_PROVIDER_RETRIES: '2',
  OUTPOST_PROVIDER_RETRY_DELAY_MS: '1',
  OUTPOST_PROVIDER_RETRY_MAX_DELAY_MS: '5',
};

/** A transcript in brief: `user:<text>` for prompts, the type for everything else. */
export function outline(messages: Array<Record<string, unknown>>): string[] {
  return messages.map((m) => (m.type === 'user' ? `user:${String(m.text)}` : String(m.type)));
}

/**
 * Checks every `everyMs` until `done` resolves true. Gives up with an error after 45 s, so that a broken
 * behaviour fails the test (within jest's time-out) instead of leaving a loop running.
 */
export async function pollUntil(what: string, done: () => Promise<boolean>, everyMs = 100): Promise<void> {
  const giveUp = Date.now() + 45_000;
  while (!(await done())) {
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
