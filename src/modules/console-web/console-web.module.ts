import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { consoleAccessConfig } from '../console-access/console-access.config';
import { DeviceModule } from '../device/device.module';
import { IdentityModule } from '../identity/identity.module';
import { KeysModule } from '../keys/keys.module';
import { SsoModule } from '../sso/sso.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { CsrfService } from './csrf.service';
import { PagesController } from './pages.controller';
import { PasswordPagesController } from './password-pages.controller';

/** The console's web pages: sign-in, sign-up, device approval, invitations, and the person's overview. */
@Module({
  imports: [
    ConfigModule.forFeature(consoleAccessConfig),
    IdentityModule,
    WorkspacesModule,
    KeysModule,
    DeviceModule,
    SsoModule,
  ],
  controllers: [PagesController, PasswordPagesController],
  providers: [CsrfService],
})
export class ConsoleWebModule {}
