import { Body, Controller, Get, Module, Post, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { Public } from '@/common/auth';

class InnerDto {
  @IsString()
  directory: string;
}

class ProbeBodyDto {
  @IsString()
  title: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  count?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => InnerDto)
  location?: InnerDto;
}

class ProbeQueryDto {
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: string;
}

/** A route under each JSON prefix, only in tests, to drive the global pipe, middleware and filter. */
@Public()
@Controller()
class ProbeController {
  @Post('api/__probe')
  echo(@Body() body: ProbeBodyDto) {
    return { data: body };
  }

  @Get('api/__probe')
  query(@Query() query: ProbeQueryDto) {
    return { data: query };
  }

  @Get('api/__boom')
  boom(): never {
    throw new Error('secret internal detail: SELECT * FROM password_hashes');
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
