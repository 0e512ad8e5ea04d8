import { Body, Controller, Get, HttpCode, Param, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LocationsService } from '../locations/locations.service';
import { QuestionRequestsService } from '../runtime/questions/question-requests.service';
import { SkillsService } from '../runtime/skills/skills.service';
import { V1QueryDto } from './dto/v1-query.dto';
import { V1QuestionParamsDto, V1QuestionReplyDto } from './dto/v1-question.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';

/** v1's skills and the model's questions (the TUI's question dialog): list, answer, dismiss. */
@ApiExcludeController()
@Controller()
@UseFilters(V1ErrorFilter)
export class V1QuestionsController {
  constructor(
    private readonly locations: LocationsService,
    private readonly questions: QuestionRequestsService,
    private readonly skills: SkillsService,
  ) {}

  @Get('skill')
  async skillList(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    return this.skills.list(await this.locations.resolve(directory));
  }

  @Get('question')
  async list(@Query() _query: V1QueryDto, @V1Directory() directory?: string) {
    const location = directory ? (await this.locations.resolve(directory)).directory : undefined;
    return this.questions.list({ directory: location });
  }

  @Post('question/:requestID/reply')
  @HttpCode(200)
  reply(@Param() params: V1QuestionParamsDto, @Body() body: V1QuestionReplyDto): true {
    this.questions.reply(params.requestID, body.answers);
    return true;
  }

  @Post('question/:requestID/reject')
  @HttpCode(200)
  reject(@Param() params: V1QuestionParamsDto): true {
    this.questions.reject(params.requestID);
    return true;
  }
}
