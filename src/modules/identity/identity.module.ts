import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { consoleAccessConfig } from '../console-access/console-access.config';
import { WorkspacesModule } from '../workspaces/workspaces.module';
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
    TypeOrmModule.forFeature([UserEntity, ConsoleSessionEntity]),
    WorkspacesModule,
  ],
  controllers: [AuthController, UserController],
  providers: [
    IdentityService,
    PasswordService,
    SessionsService,
    ConsoleSessionsRepository,
    UsersRepository,
    LoginThrottleService,
  ],
  exports: [IdentityService],
})
export class IdentityModule {}
