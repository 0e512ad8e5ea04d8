import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { consoleAccessConfig } from '../console-access/console-access.config';
import { AuditModule } from '../audit/audit.module';
import { MailModule } from '../mail/mail.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetEntity } from './password-reset.entity';
import { PasswordResetService } from './password-reset.service';
import { PasswordResetsRepository } from './password-resets.repository';
import { AuthController } from './auth.controller';
import { ConsoleSessionEntity } from './console-session.entity';
import { identityConfig } from './identity.config';
import { IdentityService } from './identity.service';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from './password.service';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { SessionsService } from './sessions.service';
import { UserController } from './user.controller';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';

/** People, passwords and sign-in (the console cookie). */
@Module({
  imports: [
    ConfigModule.forFeature(identityConfig),
    ConfigModule.forFeature(consoleAccessConfig),
    TypeOrmModule.forFeature([UserEntity, ConsoleSessionEntity, PasswordResetEntity]),
    WorkspacesModule,
    MailModule,
    AuditModule,
  ],
  controllers: [AuthController, UserController, PasswordResetController],
  providers: [
    IdentityService,
    PasswordService,
    SessionsService,
    ConsoleSessionsRepository,
    UsersRepository,
    LoginThrottleService,
    PasswordResetService,
    PasswordResetsRepository,
  ],
  exports: [IdentityService, PasswordResetService],
})
export class IdentityModule {}
