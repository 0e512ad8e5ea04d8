import { Injectable } from '@nestjs/common';
import { TaggedError } from '@/common/errors';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';
import { ConsolePrincipal } from '../console-access/console-principal';

const MINUTE_MS = 60_000;

/** A key whose `allowed_models` do not name the model or route it called. */
export class KeyModelError extends TaggedError {
  readonly status = 403;
  constructor(model: string, allowed: string[]) {
    super(`This key may not use "${model}"; it may use: ${allowed.join(', ')}`, { model });
  }
}

/**
 * A key's own controls on the gateway: the models it may call, and its requests and tokens a minute, counted in
 * the shared rate-limit store so every node holds the same limit. Keys without controls cost nothing here.
 */
@Injectable()
export class KeyLimits {
  constructor(private readonly limiter: RateLimiter) {}

  /** Before a call: `names` are what the call's model is known as (what was sent, the catalogue's id, a route). */
  async admit(principal: ConsolePrincipal, names: string[]): Promise<void> {
    const controls = principal.controls;
    if (!controls) return;
    const allowed = controls.allowedModels;
    if (allowed && !names.some((name) => allowed.includes(name))) throw new KeyModelError(names[0], allowed);
    const id = principal.credentialId;
    if (controls.requestsPerMinute !== null)
      await this.limiter.consume(
        `key-rpm:${id}`,
        { max: controls.requestsPerMinute, windowMs: MINUTE_MS },
        `This key's limit of ${controls.requestsPerMinute} requests a minute is reached`,
        true,
      );
    if (controls.tokensPerMinute !== null)
      await this.limiter.check(
        `key-tpm:${id}`,
        { max: controls.tokensPerMinute, windowMs: MINUTE_MS },
        `This key's limit of ${controls.tokensPerMinute} tokens a minute is reached`,
      );
  }

  /** After a call: its tokens count against the key's minute (written after the answer left). */
  record(principal: ConsolePrincipal, tokens: number): void {
    if (principal.controls?.tokensPerMinute == null || tokens <= 0) return;
    this.limiter.add(`key-tpm:${principal.credentialId}`, MINUTE_MS, tokens);
  }
}
