import { LocationPublicInfoDto } from '../../locations/dto/location-public-info.dto';

export class CommandModelDto {
  id!: string;
  providerID!: string;
}

/** `CommandV2Info`: a command template (built-in, config, file) or an MCP server's prompt. */
export class CommandViewDto {
  name!: string;
  template!: string;
  description?: string;
  agent?: string;
  model?: CommandModelDto;
  subtask?: boolean;
}

export class CommandListDto {
  location!: LocationPublicInfoDto;
  data!: CommandViewDto[];
}

/** `SkillV2Info`: `location` is the path of its SKILL.md, `content` its instructions. */
export class SkillViewDto {
  name!: string;
  description?: string;
  location!: string;
  content!: string;
}

export class SkillListDto {
  location!: LocationPublicInfoDto;
  data!: SkillViewDto[];
}

export class QuestionOptionDto {
  label!: string;
  description!: string;
}

export class QuestionInfoDto {
  question!: string;
  header!: string;
  options!: QuestionOptionDto[];
  multiple?: boolean;
}

export class QuestionToolRefDto {
  messageID!: string;
  callID!: string;
}

/** A question the model asked and the person has not answered yet. */
export class QuestionRequestDto {
  id!: string;
  sessionID!: string;
  questions!: QuestionInfoDto[];
  tool?: QuestionToolRefDto;
}

export class QuestionRequestListDto {
  location!: LocationPublicInfoDto;
  data!: QuestionRequestDto[];
}
