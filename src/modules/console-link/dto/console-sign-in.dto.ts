import { IsUrl, MaxLength } from 'class-validator';

/** `POST /api/console-link/sign-in`: the console to sign this instance in to (its address). */
export class ConsoleSignInDto {
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'console must be an http(s) URL' },
  )
  @MaxLength(2048)
  console!: string;
}
