import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, Dispatcher, fetch, request } from 'undici';
import { InternalAddressError, OutboundPolicy } from './outbound-policy';
import { parseOutboundEnv } from './outbound.config';

type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;
type RequestOptions = Omit<NonNullable<Parameters<typeof request>[1]>, 'dispatcher'>;

/**
 * The one HTTP client for calls whose address a user, a model or a console chooses (web fetches, the console an
 * instance signs in to): undici, with every connection dialled through the outbound policy's connector, so the
 * address checked is the address connected to, whatever DNS answers next. The gateway's connections use the same
 * connector on their own pool (`UpstreamSender`).
 */
@Injectable()
export class OutboundHttp implements OnApplicationShutdown {
  private readonly dispatcher: Dispatcher;

  constructor(policy: OutboundPolicy) {
    this.dispatcher = new Agent({ connect: policy.connector() });
  }

  /** Outside Nest (the `outpost` commands): the policy of `OUTPOST_CONNECTIONS_ALLOW` in `env`. */
  static fromEnv(env: Record<string, string | undefined>): OutboundHttp {
    return new OutboundHttp(new OutboundPolicy(parseOutboundEnv(env).allow));
  }

  /** WHATWG fetch; a refused address rejects with a TypeError whose `cause` is the `InternalAddressError`. */
  fetch(url: string | URL, init: FetchInit = {}) {
    return fetch(url, { ...init, dispatcher: this.dispatcher });
  }

  /** undici's request (no redirect followed unless asked); a refused address rejects with `InternalAddressError`. */
  request(url: string | URL, options: RequestOptions = {}) {
    return request(url, { ...options, dispatcher: this.dispatcher });
  }

  /** Closes its connections (the `outpost` commands call it, so the process can end). */
  async close(): Promise<void> {
    await this.dispatcher.destroy();
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** The refusal behind a failed call (fetch wraps it as the `cause`), if the outbound policy refused it. */
export function refusedAddress(error: unknown): InternalAddressError | undefined {
  for (let at = error; at instanceof Error; at = at.cause) {
    if (at instanceof InternalAddressError) return at;
  }
  return undefined;
}
