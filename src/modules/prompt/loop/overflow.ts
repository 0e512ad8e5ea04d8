import type { ModelLimit } from '../../runtime/providers/provider-config';
import type { StepTokens } from '../../runtime/providers/step.types';

/**
 * Whether a step filled the model's context: its tokens (prompt, cache and answer) reached the context limit
 * less the room kept for an answer. A model without a configured context limit never overflows.
 */
export function overflows(limit: ModelLimit | undefined, tokens: StepTokens): boolean {
  if (!limit?.context) return false;
  const { input, output, cache } = tokens;
  return input + output + cache.read + cache.write >= limit.context - (limit.output ?? 0);
}
