import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

/** The web app's sign-in form: the server password (the username is `opencode` unless the server set another). */
export class SignInDto {
  @IsString()
  @Length(1, 1000)
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  username?: string;
}
