import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class SwitchAgentDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  agent!: string;
}
