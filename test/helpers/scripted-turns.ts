/** The turns a scripted model server answers with, and what its wire formats share to send them. */
import type { ServerResponse } from 'node:http';

/** One tool call the scripted model asks for. `arguments` overrides the JSON text sent (e.g. to send broken JSON). */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  input?: Record<string, unknown>;
  arguments?: string;
}

export interface ScriptedUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/** A successful streamed answer. */
export interface ScriptedAnswer {
  /** Text, sent as one delta per array element. */
  text?: string | string[];
  reasoning?: string | string[];
  toolCalls?: ScriptedToolCall[];
  usage?: ScriptedUsage;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finish?: 'stop' | 'tool_calls' | 'length';
  /** Wait this long before the response starts. */
  delayMs?: number;
  /** After the text deltas, send an error event in the stream (Anthropic `overloaded_error`, ...) and end. */
  streamError?: { type: string; message: string };
  /** Send the text deltas, then hold the stream open until the client goes away (for interrupts). */
  hold?: boolean;
  /** Send the text deltas (or, unstreamed, nothing), then wait for this before finishing the answer (or for the
   * client to go away). */
  until?: Promise<unknown>;
}

/** An HTTP error answer: 500, 429 with `Retry-After`, ... */
export interface ScriptedError {
  status: number;
  message?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

export type ScriptedTurn = ScriptedAnswer | { error: ScriptedError };

export function pieces(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Splits JSON text in two so the client has to join argument deltas. */
export function split(text: string): string[] {
  if (text.length < 2) return [text];
  const middle = Math.floor(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)];
}

export function toolArguments(call: ScriptedToolCall): string {
  return call.arguments ?? JSON.stringify(call.input ?? {});
}

/** Resolves when the client closes the connection (used by `hold`). */
export function closed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) resolve();
    res.on('close', () => resolve());
  });
}

/** Waits for `until`; false when the client went away first. */
export async function released(res: ServerResponse, until: Promise<unknown>): Promise<boolean> {
  await Promise.race([until, closed(res)]);
  return !res.destroyed && !res.writableEnded;
}
