import { IsString, MaxLength, MinLength } from 'class-validator';

export class AgentParamsDto {
  /** Agent.ID, e.g. `build`. */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  agentID: string;
}
