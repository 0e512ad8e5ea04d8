import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { AddedProviderDto, AddProviderDto } from './dto/add-provider.dto';
import { ProviderSetupService } from './provider-setup.service';

@ApiTags('location')
@Controller('api/provider')
export class ProviderSetupController {
  constructor(private readonly setup: ProviderSetupService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'provider.add',
    summary:
      'Add a provider for every location: written into the global outpost.json, its key kept in the data folder',
  })
  @ApiOkResponse({ type: AddedProviderDto })
  @ApiErrorResponse(400, 'InvalidRequestError', 'a field is missing or malformed; the message names it')
  @ApiErrorResponse(409, 'ConflictError', 'the global outpost.json is not a JSON object')
  add(@Body() body: AddProviderDto): AddedProviderDto {
    return this.setup.add(body);
  }
}
