import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { isEmail } from 'class-validator';
import { CommonModule } from '@/common/common.module';
import { appConfig, databaseConfig } from '@/config/app.config';
import { validateEnv } from '@/config/validate-env';
import { RateLimitModule } from '@/common/rate-limit/rate-limit.module';
import { DatabaseServicesModule } from '@/database/database-services.module';
import { DatabaseModule } from '@/database/database.module';
import { stopEmbeddedDatabase } from '@/database/embedded';
import { IdentityModule } from './identity.module';
import { IdentityService } from './identity.service';
import { MIN_PASSWORD_LENGTH } from './password.service';

const USAGE = `usage: outpost console create-user --email <email> --password-stdin [--name <name>]

Creates a console account (whatever OUTPOST_CONSOLE_SIGNUP says) with a "Personal" workspace it owns.
The password is read from standard input, e.g.  printf '%s' "$PASSWORD" | outpost console create-user ...
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

function parseArgs(args: string[]): { email: string; name?: string } {
  let email: string | undefined;
  let name: string | undefined;
  let passwordStdin = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--email') email = args[++i];
    else if (arg.startsWith('--email=')) email = arg.slice(8);
    else if (arg === '--name') name = args[++i];
    else if (arg.startsWith('--name=')) name = arg.slice(7);
    else if (arg === '--password-stdin') passwordStdin = true;
    else fail(`outpost: unknown option ${arg}\n${USAGE}`);
  }
  if (!email || !passwordStdin) fail(USAGE);
  if (!isEmail(email)) fail(`outpost: not an email address: ${email}`);
  return { email, name };
}

/** `outpost console <sub-command>`. */
export async function consoleCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === undefined || args.includes('--help') || args.includes('-h')) {
    process.stdout.write(USAGE);
    return;
  }
  if (sub !== 'create-user') fail(`outpost: unknown console command "${sub}"\n${USAGE}`);
  const { email, name } = parseArgs(rest);
  const password = await readStdin();
  if (password.length < MIN_PASSWORD_LENGTH) {
    fail(`outpost: the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  try {
    validateEnv(process.env);
  } catch (error) {
    fail(`outpost: invalid configuration: ${(error as Error).message}`, 1);
  }
  // With no DATABASE_URL this joins the embedded server of a running `outpost serve` (or starts it briefly).
  let failure: string | undefined;
  try {
    const app = await NestFactory.createApplicationContext(CreateUserModule, { logger: ['error'] });
    try {
      const { user } = await app.get(IdentityService).createPerson({ email, password, name }, null, false);
      process.stdout.write(`created ${user.id} <${user.email}>, owner of a new "Personal" workspace\n`);
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
