import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';

export class V1QuestionParamsDto {
  @IsString()
  @MaxLength(200)
  requestID!: string;
}

/** The person's answers, in the order of the questions: the chosen labels (or typed text) of each. */
export class V1QuestionReplyDto {
  @IsArray()
  @ArrayMaxSize(100)
  @IsArray({ each: true })
  answers!: string[][];
}
