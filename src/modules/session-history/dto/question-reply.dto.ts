import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { SessionIdParamsDto } from '../../sessions/dto/session-id-params.dto';

export class QuestionParamsDto extends SessionIdParamsDto {
  @IsString()
  @MaxLength(200)
  requestID!: string;
}

export class QuestionReplyDto {
  /** One list per question, in order: the chosen labels (or the typed answer). */
  @IsArray()
  @ArrayMaxSize(100)
  @IsArray({ each: true })
  answers!: string[][];
}
