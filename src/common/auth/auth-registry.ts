import { Injectable } from '@nestjs/common';
import { Authenticator } from './authenticator';

/**
 * Each surface's auth module registers the authenticator for its path prefixes at start-up;
 * the global guard picks one by the request path. A path with no authenticator is refused.
 */
@Injectable()
export class AuthRegistry {
  private readonly entries: Array<{ prefix: string; authenticator: Authenticator }> = [];

  register(prefixes: string[], authenticator: Authenticator): void {
    for (const prefix of prefixes) this.entries.push({ prefix, authenticator });
    // Longest prefix first, so `/console/api/` wins over `/console/`.
    this.entries.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  find(path: string): Authenticator | undefined {
    return this.entries.find((entry) => path.startsWith(entry.prefix))?.authenticator;
  }
}
