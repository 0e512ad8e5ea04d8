import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { LocationReloadService } from './location-reload.service';

@ApiTags('location')
@Controller('api/location')
export class LocationReloadController {
  constructor(private readonly reloads: LocationReloadService) {}

  @Post('reload')
  @HttpCode(204)
  @ApiOperation({ operationId: 'location.reload', summary: 'Shut down and rebuild every loaded location' })
  @ApiServiceUnavailableResponse({ description: 'ServiceUnavailableError while the server shuts down' })
  async reload(): Promise<void> {
    await this.reloads.reload();
  }
}
