import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@/common/auth';
import { HttpRequest } from '@/common/http/http';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { AllowInferenceKeys, OrgRole } from '../console-access/console-access.decorators';
import { ConsolePrincipal } from '../console-access/console-principal';
import { SearchAnswerDto, SearchRequestDto } from './dto/search.dto';
import { SearchGateway } from './search-gateway';

/** Results a search asks for when the caller names no number. */
const DEFAULT_RESULTS = 5;

/** The gateway's web search: the workspace's search provider, metered and logged like a model call. */
@ApiTags('inference')
@Controller('inference/v1/search')
export class SearchController {
  constructor(private readonly gateway: SearchGateway) {}

  @Post()
  @HttpCode(200)
  @AllowInferenceKeys()
  @OrgRole('member')
  @ApiOperation({
    operationId: 'inference.search',
    summary:
      "A web search through the workspace's search provider (`websearch.providerID`), billed at its price per 1,000 searches",
  })
  @ApiErrorResponse(402, 'UserLimitError', 'a budget (key, member or workspace) cannot pay for the search')
  @ApiErrorResponse(403, 'KeyModelError', 'the key’s allowed_models do not name search/<provider id>')
  @ApiErrorResponse(404, 'SearchNotEnabledError', 'the workspace config enables no web search')
  async search(
    @Body() body: SearchRequestDto,
    @CurrentPrincipal() principal: ConsolePrincipal,
    @Req() request: HttpRequest,
  ): Promise<SearchAnswerDto> {
    const results = await this.gateway.search(
      principal,
      request,
      body.query,
      body.max_results ?? DEFAULT_RESULTS,
    );
    return { results };
  }
}
