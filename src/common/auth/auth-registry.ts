import { Injectable } from '@nestjs/common';
import { Authenticator } from './authenticator';

export interface AuthRegistration {
  /**
   * Unknown routes under these prefixes ask for credentials before they answer 404, so a caller without
   * credentials learns nothing about which routes exist.
   */
  guardUnknownRoutes?: boolean;
}

interface Entry extends AuthRegistration {
  prefix: string;
  authenticator: Authenticator;
}

/**
 * Each surface's auth module registers the authenticator for its path prefixes at start-up;
 * the global guard picks one by the request path. A path with no authenticator is refused.
 */
@Injectable()
export class AuthRegistry {
  private readonly entries: Entry[] = [];

  register(prefixes: string[], authenticator: Authenticator, options: AuthRegistration = {}): void {
    for (const prefix of prefixes) this.entries.push({ prefix, authenticator, ...options });
    // Longest prefix first, so `/console/api/` wins over `/console/`.
    this.entries.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  find(path: string): Authenticator | undefined {
    return this.entry(path)?.authenticator;
  }

  /** The authenticator that must pass before an unknown route under `path` may answer 404. */
  findForUnknownRoute(path: string): Authenticator | undefined {
    const entry = this.entry(path);
    return entry?.guardUnknownRoutes ? entry.authenticator : undefined;
  }

  private entry(path: string): Entry | undefined {
    return this.entries.find((entry) => path.startsWith(entry.prefix));
  }
}
