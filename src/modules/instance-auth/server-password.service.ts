import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appConfig, AppConfig } from '@/config/app.config';
import { instanceAuthConfig, InstanceAuthConfig } from './instance-auth.config';
import { SecretMatcher } from './presented-credentials';

/** The server password: from the environment, or generated on first start and kept (mode 0600). */
@Injectable()
export class ServerPasswordService implements OnModuleInit {
  private readonly logger = new Logger('InstanceAuth');
  private value = '';
  private matchers?: { username: SecretMatcher; password: SecretMatcher };

  constructor(
    @Inject(instanceAuthConfig.KEY) private readonly config: InstanceAuthConfig,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.password) {
      this.value = this.config.password;
      this.source = 'OUTPOST_PASSWORD';
      return;
    }
    const file = join(this.app.dataDir, 'server-password');
    this.source = file;
    if (existsSync(file)) {
      this.value = readFileSync(file, 'utf8').trim();
      this.logger.log(`server password is in ${file}`);
      return;
    }
    mkdirSync(this.app.dataDir, { recursive: true });
    this.value = randomBytes(32).toString('base64url');
    writeFileSync(file, this.value + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    // Shown once, in the start-up banner of the start that created it; later starts only say where it is.
    this.generated = { user: this.config.username, value: this.value, file };
  }

  /** Where a person finds the password: the variable that sets it, or the file that keeps it. */
  source = '';

  /** Set only on the start that generated the password, for the start-up banner. */
  generated?: { user: string; value: string; file: string };

  get password(): string {
    return this.value;
  }

  /** Whether `user:pass` are the server's (constant time). */
  accepts(user: string, pass: string): { user: boolean; password: boolean } {
    this.matchers ??= {
      username: new SecretMatcher(this.config.username),
      password: new SecretMatcher(this.value),
    };
    const userMatches = this.matchers.username.matches(user);
    return { user: userMatches, password: userMatches && this.matchers.password.matches(pass) };
  }

  get username(): string {
    return this.config.username;
  }
}
