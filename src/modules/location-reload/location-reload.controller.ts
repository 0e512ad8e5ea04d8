import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { LocationReloadService } from './location-reload.service';

@ApiTags('location')
@Controller('api/location')
export class LocationReloadController {
  constructor(private readonly reloads: LocationReloadService) {}

  @Post('reload')
  @HttpCode(204)
  @ApiOperation({ operationId: 'location.reload', summary: 'Shut down and rebuild every loaded location' })
  @ApiErrorResponse(503, 'ServiceUnavailableError', 'while the server shuts down')
  @ApiNoContentResponse({ description: 'Every loaded location was rebuilt' })
  async reload(): Promise<void> {
    await this.reloads.reload();
  }
}
