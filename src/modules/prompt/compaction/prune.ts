import type { AssistantMessage, SessionMessageInfo } from '../../sessions/session-message.types';

/** Tokens of recent tool output kept whole; older outputs beyond it are pruned. */
const PROTECT_TOKENS = 40_000;
/** Pruning only pays when it frees at least this much. */
const MINIMUM_TOKENS = 20_000;
/** The latest user turns are never pruned. */
const PROTECTED_TURNS = 2;

/** A rough token count: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Marks old tool outputs as pruned (`time.compacted`), as opencode does before it compacts: going back from
 * the newest message, past the last two user turns, the first 40k tokens of tool output are kept and every
 * older completed output is pruned, when that frees at least 20k tokens. Stops at an earlier compaction (what
 * lies before it is summarised already). Returns the assistant messages it changed, to be written.
 */
export function pruneToolOutputs(transcript: SessionMessageInfo[], now: number): AssistantMessage[] {
  let turns = 0;
  let kept = 0;
  let freed = 0;
  const marks: Array<{ message: AssistantMessage; index: number }> = [];
  for (let i = transcript.length - 1; i >= 0; i--) {
    const message = transcript[i];
    if (message.type === 'user') turns++;
    if (message.type === 'compaction' && message.status === 'completed') break;
    if (turns < PROTECTED_TURNS || message.type !== 'assistant') continue;
    for (let index = message.content.length - 1; index >= 0; index--) {
      const part = message.content[index];
      if (part.type !== 'tool' || part.state.status !== 'completed') continue;
      if (part.time.compacted) return apply(marks, freed, now);
      const tokens = estimateTokens(
        part.state.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n'),
      );
      kept += tokens;
      if (kept <= PROTECT_TOKENS) continue;
      freed += tokens;
      marks.push({ message, index });
    }
  }
  return apply(marks, freed, now);
}

function apply(
  marks: Array<{ message: AssistantMessage; index: number }>,
  freed: number,
  now: number,
): AssistantMessage[] {
  if (freed < MINIMUM_TOKENS) return [];
  const changed = new Set<AssistantMessage>();
  for (const { message, index } of marks) {
    const part = message.content[index] as Extract<AssistantMessage['content'][number], { type: 'tool' }>;
    part.time = { ...part.time, compacted: now };
    changed.add(message);
  }
  return [...changed];
}
