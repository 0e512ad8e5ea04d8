import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { PromptMessage } from './history';

/** Provider metadata, keyed by provider (`{ anthropic: { signature } }`), round-tripped through the history. */
export type ProviderState = Record<string, Record<string, unknown>>;

/** Token counts of a step, in opencode's shape: `input` excludes cached tokens, `output` includes reasoning. */
export interface StepTokens {
  input: number;
  output: number;
  reasoning: number;
  cache: { read: number; write: number };
}

/** A tool as the model sees it. The loop runs tools itself, so there is no `execute`. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface StepToolCall {
  id: string;
  name: string;
  input: unknown;
  /** The provider's metadata of the call, to send back with the history. */
  providerState?: ProviderState;
  /** Set when the model sent arguments that are not valid JSON or named an unknown tool. */
  invalid?: string;
}

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'unknown';

/** What streams out of a step while it runs, in order. */
export type StepEvent =
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; text: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; text: string }
  /** `state`: the provider's metadata of the block (e.g. Anthropic's signature); send it back with the history. */
  | { type: 'reasoning-end'; id: string; state?: ProviderState }
  | { type: 'tool-input-start'; id: string; name: string }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-call'; call: StepToolCall };

export interface StepError {
  type: string;
  message: string;
  status?: number;
}

/** `retry` on the assistant message: the attempt that failed, when the next one starts, and why. */
export interface StepRetry {
  attempt: number;
  at: number;
  delayMs: number;
  error: StepError;
}

export interface StepRequest {
  model: LanguageModelV3;
  system?: string;
  /** The history in the provider's shape (`toPromptMessages`); not changed by the step. */
  messages: PromptMessage[];
  tools?: ToolSpec[];
  headers?: Record<string, string>;
  providerOptions?: Record<string, Record<string, unknown>>;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  onEvent?: (event: StepEvent) => void;
  onRetry?: (retry: StepRetry) => void;
}

/**
 * `completed`: the model finished (see `finish`); `failed`: a non-retryable error or retries exhausted
 * (`error` says why); `interrupted`: the signal aborted the step.
 */
export interface StepResult {
  status: 'completed' | 'failed' | 'interrupted';
  finish: FinishReason;
  text: string;
  reasoning: string;
  toolCalls: StepToolCall[];
  tokens: StepTokens;
  error?: StepError;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
}

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}
