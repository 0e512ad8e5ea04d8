import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { ROLES, Role } from '../../console-access/console-principal';

export class CreateInviteDto {
  @IsEmail()
  @MaxLength(320)
  email!: string;

  /** Only owners may invite owners. */
  @IsIn(ROLES)
  role!: Role;
}

export class InviteCreatedDto {
  id!: string;
  /** The link to send to the person; it carries the invitation token (shown once). */
  url!: string;
  expires_at!: string;
  /** An earlier, unused invitation of the same email existed: its link no longer works. */
  replaced_earlier!: boolean;
  /** The link was sent to the email by the console's SMTP server (`OUTPOST_SMTP_URL`). */
  emailed!: boolean;
}

export class InviteDto {
  id!: string;
  email!: string;
  role!: Role;
  created_at!: string;
  expires_at!: string;
}
