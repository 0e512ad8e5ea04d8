import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationQueryDto } from '../locations/dto/location-query.dto';
import { LocationsService } from '../locations/locations.service';
import { ProviderParamsDto } from './dto/catalog-params.dto';
import { ProviderTestDto, ProviderTestRequestDto } from './dto/provider-test.dto';
import { ProviderTester } from './provider-tester';

@ApiTags('location')
@Controller('api/provider')
export class ProviderTestController {
  constructor(
    private readonly locations: LocationsService,
    private readonly tester: ProviderTester,
  ) {}

  @Post(':providerID/test')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'provider.test',
    summary:
      "One small real call to a location's provider (a one-token answer, 5 s at most): what answered, or why not, naming the provider, its URL and the cause",
  })
  @ApiOkResponse({ type: ProviderTestDto })
  @ApiErrorResponse(400, 'InvalidRequestError', 'a field is malformed, or the provider has no such model')
  @ApiErrorResponse(404, 'ProviderNotFoundError', 'the location has no such provider')
  async test(
    @Param() params: ProviderParamsDto,
    @Query() query: LocationQueryDto,
    @Body() body: ProviderTestRequestDto,
  ): Promise<ProviderTestDto> {
    const location = await this.locations.resolve(query.location?.directory);
    return this.tester.test(location, params.providerID, body.model);
  }
}
