import { IsString, MaxLength, MinLength } from 'class-validator';

export class PtyParamsDto {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  ptyID!: string;
}
