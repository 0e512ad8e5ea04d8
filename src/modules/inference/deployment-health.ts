import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { Deployment } from './gateway-routes';

/** How long a provider key sits out after the provider refused it or rate-limited it. */
export const KEY_COOLDOWN_MS = 10_000;

/**
 * What this process knows of its upstreams: calls in flight per deployment, and which deployments and keys are
 * sitting out after a failure. Kept in memory: each node learns from its own calls, and a cooldown ends by itself.
 */
@Injectable()
export class DeploymentHealth {
  private readonly inFlight = new Map<string, number>();
  private readonly cooledUntil = new Map<string, number>();
  private readonly turns = new Map<string, number>();

  /**
   * The deployments in the order to try them: a weighted race in which each deployment's chance is its weight over
   * its calls in flight (so an idle heavy deployment is picked most, a busy one less), ready ones before cooled ones.
   */
  order(deployments: Deployment[]): string[] {
    const now = performance.now();
    return deployments
      .map(({ model, weight }) => {
        const load = (this.inFlight.get(model) ?? 0) + 1;
        const cooled = (this.cooledUntil.get(model) ?? 0) > now;
        return { model, cooled, score: (-Math.log(1 - Math.random()) * load) / weight };
      })
      .sort((a, b) => Number(a.cooled) - Number(b.cooled) || a.score - b.score)
      .map((entry) => entry.model);
  }

  /** Counts a call in flight on `model`; the function returned ends it. */
  begin(model: string): () => void {
    this.inFlight.set(model, (this.inFlight.get(model) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.inFlight.get(model) ?? 1) - 1;
      if (left > 0) this.inFlight.set(model, left);
      else this.inFlight.delete(model);
    };
  }

  /** `what` (a deployment, or a provider's key) sits out for `ms`. */
  cool(what: string, ms: number): void {
    this.cooledUntil.set(what, performance.now() + ms);
  }

  /** A provider's keys in the order to use them: the next in turn first, keys sitting out last. */
  keys(provider: string, keys: string[]): string[] {
    if (keys.length < 2) return keys;
    const turn = this.turns.get(provider) ?? 0;
    this.turns.set(provider, (turn + 1) % keys.length);
    const now = performance.now();
    const rotated = [...keys.slice(turn), ...keys.slice(0, turn)];
    const cooled = (key: string) => (this.cooledUntil.get(keyId(provider, keys.indexOf(key))) ?? 0) > now;
    return [...rotated.filter((key) => !cooled(key)), ...rotated.filter(cooled)];
  }

  coolKey(provider: string, keys: string[], key: string): void {
    this.cool(keyId(provider, keys.indexOf(key)), KEY_COOLDOWN_MS);
  }
}

const keyId = (provider: string, index: number) => `key:${provider}#${index}`;
