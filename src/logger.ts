import { LoggerService } from '@nestjs/common';
import type { onResponseHookHandler } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino, { Logger, Level } from 'pino';
import pretty from 'pino-pretty';
import { loggableError, REDACTED_LOG_PATHS, redactUrl } from './common/http/redact';
import { observeRequest } from './common/metrics/metrics';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * The process's one logger, never buffered, secrets redacted: readable lines on a terminal, JSON lines
 * otherwise (or always, with `LOG_FORMAT=json`).
 */
export function createLogger(level: string, format: LogFormat = 'auto'): Logger {
  const options = { level, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' } };
  const readable = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  if (!readable) return pino(options);
  return forReading(
    pino(
      options,
      pretty({
        sync: true,
        colorize: process.stdout.isTTY === true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,reqId,context',
        messageFormat: '{if context}[{context}] {end}{msg}',
      }),
    ),
  );
}

/** Loggers whose lines a person reads on a terminal (and their request-line children). */
const READ_BY_PEOPLE = new WeakSet<Logger>();

function forReading(logger: Logger): Logger {
  READ_BY_PEOPLE.add(logger);
  return logger;
}

/** Whether `logger` writes readable lines (a terminal, or `LOG_FORMAT=pretty`) rather than JSON lines. */
export function readByPeople(logger: Logger): boolean {
  return READ_BY_PEOPLE.has(logger);
}

/** Nest's own start-up chatter (every route mapped, every module initialised) is for debugging. */
const NEST_CHATTER = new Set([
  'RoutesResolver',
  'RouterExplorer',
  'InstanceLoader',
  'NestFactory',
  'NestApplication',
]);

/** The client's `x-request-id` when it is a sane token, else a new UUID; every response echoes it. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** A finished request, as logged: never its headers or body. */
export interface FinishedRequest {
  id: string;
  method: string;
  url: string;
  ip: string;
  /** The route's pattern (`/api/session/:sessionID`), for the metrics. */
  route: string | undefined;
  status: number;
  ms: number;
}

/**
 * The logger for request lines (`logRequest`). Their fields are ours and safe as they are (no headers; the URL
 * through `redactUrl`), so they skip pino's redaction, which is half of what a line costs (9 of 16 µs in a loop
 * on this machine; the gateway logs one line per model call).
 */
export function requestLineLogger(logger: Logger): Logger {
  const lines = logger.child({}, { redact: { paths: [] } });
  return READ_BY_PEOPLE.has(logger) ? forReading(lines) : lines;
}

/**
 * One line per finished request (written with `requestLineLogger`): `info` when it succeeded, `warn` for a client error, `error` for ours.
 * Only the method, the path with its secrets redacted, the status and the time are logged, never headers.
 * On a terminal the line is just `GET /api/session 200 3ms`, so the start-up banner and the one-time password
 * are not buried under request objects; the object follows it only at `debug`. JSON lines always carry it.
 */
export function logRequest(logger: Logger, done: FinishedRequest): void {
  observeRequest(done.route, done.method, done.status, done.ms / 1000);
  const level: Level = done.status >= 500 ? 'error' : done.status >= 400 ? 'warn' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const url = redactUrl(done.url);
  const ms = Math.round(done.ms);
  const fields = {
    reqId: done.id,
    req: { method: done.method, url, remoteAddress: done.ip },
    res: { statusCode: done.status },
    responseTime: ms,
  };
  if (!READ_BY_PEOPLE.has(logger)) {
    logger[level](fields, 'request completed');
    return;
  }
  const line = `${done.method} ${url} ${done.status} ${ms}ms`;
  if (logger.isLevelEnabled('debug')) logger[level](fields, line);
  else logger[level]({ reqId: done.id }, line);
}

/** `logRequest` for the requests Fastify routes. */
export function requestLogHook(logger: Logger): onResponseHookHandler {
  const lines = requestLineLogger(logger);
  return (request, reply, done) => {
    logRequest(lines, {
      id: request.id,
      method: request.method,
      url: request.url,
      ip: request.ip,
      route: request.routeOptions.url,
      status: reply.statusCode,
      ms: reply.elapsedTime,
    });
    done();
  };
}

/**
 * Nest's own messages and every `Logger` of the app, through the same pino logger. Nest passes the
 * logger's context last; `logger.error({ ref, err }, 'text')` logs the object's fields with the text.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('trace', message, rest);
  }

  private write(wanted: Level, message: unknown, rest: unknown[]) {
    const strings = rest.filter((part): part is string => typeof part === 'string');
    const context = strings.at(-1);
    const level =
      (wanted === 'info' && context && NEST_CHATTER.has(context)) || context === 'ExceptionHandler'
        ? 'debug' // a boot failure: `outpost serve` prints it as one line of its own
        : wanted;
    if (!this.pino.isLevelEnabled(level)) return;
    const text = strings.length > 1 ? strings[0] : undefined;
    if (message instanceof Error)
      this.pino[level]({ context, err: loggableError(message) }, text ?? message.message);
    else if (typeof message === 'object' && message !== null) this.pino[level]({ context, ...message }, text);
    else this.pino[level]({ context }, String(message));
  }
}
