import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { instanceAuthConfig } from './instance-auth.config';
import { InstanceAuthenticator } from './instance.authenticator';
import { ServerPasswordService } from './server-password.service';

@Module({
  imports: [ConfigModule.forFeature(instanceAuthConfig)],
  providers: [ServerPasswordService, InstanceAuthenticator],
  exports: [ServerPasswordService],
})
export class InstanceAuthModule {}
