import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { mailConfig } from './mail.config';
import { MailService } from './mail.service';

/** Outgoing email (invitations, password resets) through the operator's SMTP server. */
@Module({
  imports: [ConfigModule.forFeature(mailConfig)],
  providers: [MailService],
  exports: [MailService],
})
export class MailModule {}
