import { IsString, Length } from 'class-validator';

export class ConnectParamsDto {
  /** The pairing code from `POST /api/pair`. */
  @IsString()
  @Length(1, 256)
  code: string;
}
