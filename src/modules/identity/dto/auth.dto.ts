import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { MIN_PASSWORD_LENGTH } from '../password.service';

export class SignupDto {
  @IsEmail()
  @MaxLength(320)
  email!: string;

  /** At least 10 characters. */
  @IsString()
  @Length(MIN_PASSWORD_LENGTH, 1024)
  password!: string;

  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  /** An invitation token: joins that workspace instead of creating "Personal" (required when sign-up is `invite`). */
  @IsOptional()
  @IsString()
  @Length(20, 200)
  invite?: string;
}

export class LoginDto {
  @IsString()
  @MaxLength(320)
  email!: string;

  @IsString()
  @MaxLength(1024)
  password!: string;
}

export class UserDto {
  /** `usr_…` for people; `sa_…` when a service-account key asks. */
  id!: string;
  email!: string | null;
  name!: string;
}

export class SignupResultDto {
  user!: UserDto;
}

export class PasswordResetRequestDto {
  @IsString()
  @MaxLength(320)
  email!: string;
}

export class PasswordResetCompleteDto {
  /** The token of the reset link (`/console/reset-password/<token>`). */
  @IsString()
  @Length(20, 200)
  token!: string;

  /** At least 10 characters. */
  @IsString()
  @Length(MIN_PASSWORD_LENGTH, 1024)
  password!: string;
}

export class PasswordResetRequestedDto {
  /** The same sentence whether an account has the email or not. */
  message!: string;
}

export class PasswordResetEmailDto {
  /** The account a usable reset link is for. */
  email!: string;
}

export class PasswordResetLinkDto {
  /** The single-use link to hand to the person (shown once). */
  url!: string;
  expires_at!: string;
}
