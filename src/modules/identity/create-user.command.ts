import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { isEmail } from 'class-validator';
import { commandLineOrExit } from '@/common/cli/command-line';
import { CommonModule } from '@/common/common.module';
import { appConfig, databaseConfig } from '@/config/app.config';
import { validateEnv } from '@/config/validate-env';
import { RateLimitModule } from '@/common/rate-limit/rate-limit.module';
import { DatabaseServicesModule } from '@/database/database-services.module';
import { DatabaseModule } from '@/database/database.module';
import { stopEmbeddedDatabase } from '@/database/embedded';
import { IdentityModule } from './identity.module';
import { IdentityService } from './identity.service';
import { PasswordResetService } from './password-reset.service';
import { parseConsoleAccessEnv } from '../console-access/console-access.config';
import { parseAppEnv } from '@/config/env';
import { MIN_PASSWORD_LENGTH } from './password.service';

const USAGE = `usage: outpost console create-user --email <email> --password-stdin [--name <name>]
       outpost console reset-password --email <email>

create-user     creates a console account (whatever OUTPOST_CONSOLE_SIGNUP says) with a "Personal" workspace it
                owns. The password is read from standard input, e.g.
                printf '%s' "$PASSWORD" | outpost console create-user ...
reset-password  prints a single-use link (valid for an hour) that sets a new password for the account; hand it to
                its owner. The link starts with OUTPOST_CONSOLE_ORIGIN (else http://$HOST:$PORT).
`;

/** Only what creating a person needs: no HTTP server, no instance surface. */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig, databaseConfig] }),
    EventEmitterModule.forRoot(),
    CommonModule,
    DatabaseModule,
    DatabaseServicesModule,
    RateLimitModule,
    IdentityModule,
  ],
})
class CreateUserModule {}

function fail(message: string, code = 2): never {
  process.stderr.write(message.endsWith('\n') ? message : `${message}\n`);
  process.exit(code);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** `outpost console <sub-command>`. */
export async function consoleCommand(args: string[]): Promise<void> {
  const { values, positionals } = commandLineOrExit(
    'console',
    USAGE,
    args,
    {
      email: { type: 'string' },
      name: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    1,
  );
  const [sub] = positionals;
  if (sub === undefined || values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (sub === 'reset-password') return resetPassword(values.email);
  if (sub !== 'create-user') fail(`outpost: unknown console command "${sub}"\n${USAGE}`);
  const { email, name } = values;
  if (!email || !values['password-stdin']) fail(USAGE);
  if (!isEmail(email)) fail(`outpost: not an email address: ${email}`);
  const password = await readStdin();
  if (password.length < MIN_PASSWORD_LENGTH) {
    fail(`outpost: the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  // With no DATABASE_URL this joins the embedded server of a running `outpost serve` (or starts it briefly).
  await withAccounts(async (app) => {
    const { user } = await app.get(IdentityService).createPerson({ email, password, name }, null, false);
    process.stdout.write(`created ${user.id} <${user.email}>, owner of a new "Personal" workspace\n`);
  });
}

/** Runs `work` in an application context of the console's accounts, then stops what it started. */
async function withAccounts(work: (app: INestApplicationContext) => Promise<void>): Promise<void> {
  try {
    validateEnv(process.env);
  } catch (error) {
    fail(`outpost: invalid configuration: ${(error as Error).message}`, 1);
  }
  let failure: string | undefined;
  try {
    const app = await NestFactory.createApplicationContext(CreateUserModule, { logger: ['error'] });
    try {
      await work(app);
    } finally {
      await app.close();
    }
  } catch (error) {
    failure = (error as Error).message;
  } finally {
    await stopEmbeddedDatabase();
  }
  if (failure) fail(`outpost: ${failure}`, 1);
}

async function resetPassword(email: string | undefined): Promise<void> {
  if (!email) fail(USAGE);
  const app = parseAppEnv(process.env);
  const base = parseConsoleAccessEnv(process.env).origin ?? `http://${app.host}:${app.port}`;
  await withAccounts(async (context) => {
    const link = await context.get(PasswordResetService).issueForEmail(email, base);
    process.stdout.write(
      `Reset link for ${link.email} (works once, until ${link.expiresAt.toISOString()}):\n${link.url}\n`,
    );
  });
}
