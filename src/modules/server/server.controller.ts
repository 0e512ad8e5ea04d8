import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ServerInfoDto } from './dto/server-info.dto';
import { ServerInfoService } from './server-info.service';

@ApiTags('server')
@Controller('api/info')
export class ServerController {
  constructor(private readonly server: ServerInfoService) {}

  @Get()
  @ApiOperation({
    operationId: 'server.info',
    summary: 'Server identity, connection URLs, paths and readiness',
  })
  info(): Promise<ServerInfoDto> {
    return this.server.info();
  }
}
