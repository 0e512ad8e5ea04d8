import type { ModelRef } from '../../sessions/session.types';
import { ProviderRegistry } from '../../runtime/providers/provider-registry';
import { NoModelConfiguredError } from '../prompt.errors';

/**
 * The model a step runs with: the session's, else its agent's, else the location's first configured one.
 * Throws a 400 naming the provider or model when the choice is not configured.
 */
export function chooseModel(
  registry: ProviderRegistry,
  directory: string,
  session?: ModelRef,
  agent?: ModelRef,
): ModelRef {
  const ref = session ?? agent ?? registry.first();
  if (!ref) throw new NoModelConfiguredError(directory);
  registry.model(ref);
  return ref;
}
