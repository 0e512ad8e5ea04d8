import type { PermissionCheck } from '../tools/tool.types';
import { PermissionEffect, PermissionRule, PermissionRuleset } from './permission.types';
import { wildcardMatch } from '@/common/text/wildcard';

export interface Evaluation {
  effect: PermissionEffect;
  /** The rule that decided, absent when none matched (then the effect is `ask`). */
  rule?: PermissionRule;
}

/**
 * The effect of one action on one resource under the given rulesets, read as one list in order (agent rules,
 * then the session's): the last matching rule wins; when none matches, ask.
 */
export function evaluate(action: string, resource: string, ...rulesets: PermissionRuleset[]): Evaluation {
  let found: PermissionRule | undefined;
  for (const ruleset of rulesets) {
    for (const rule of ruleset) {
      if (wildcardMatch(rule.action, action) && wildcardMatch(rule.resource, resource)) found = rule;
    }
  }
  return found ? { effect: found.effect, rule: found } : { effect: 'ask' };
}

export interface CallDecision {
  /** `deny` if any check is denied, else `ask` if any asks, else `allow`. */
  effect: PermissionEffect;
  /** The denied check and the rule that denied it. */
  denied?: { check: PermissionCheck; rule?: PermissionRule };
  /** The checks that need a person's answer, grouped by action (one request per action). */
  asks: Array<{ action: string; resources: string[] }>;
}

/** Decides a whole tool call from its checks (`tool.permissions(input, directory)`). */
export function decide(checks: PermissionCheck[], ...rulesets: PermissionRuleset[]): CallDecision {
  const asks = new Map<string, string[]>();
  for (const check of checks) {
    const { effect, rule } = evaluate(check.action, check.resource, ...rulesets);
    if (effect === 'deny') return { effect, denied: { check, rule }, asks: [] };
    if (effect === 'ask') asks.set(check.action, [...(asks.get(check.action) ?? []), check.resource]);
  }
  return {
    effect: asks.size > 0 ? 'ask' : 'allow',
    asks: [...asks].map(([action, resources]) => ({ action, resources })),
  };
}

/**
 * Whether a tool is withheld from the model: the last rule whose action matches the tool's action denies it
 * on every resource (`resource: "*"`). Narrower denies leave the tool offered and are enforced per call.
 */
export function isToolDisabled(action: string, ...rulesets: PermissionRuleset[]): boolean {
  let last: PermissionRule | undefined;
  for (const ruleset of rulesets)
    for (const rule of ruleset) if (wildcardMatch(rule.action, action)) last = rule;
  return last?.effect === 'deny' && last.resource === '*';
}
