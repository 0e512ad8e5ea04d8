import { Controller, Get, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { V1FilePathQueryDto, V1FindFilesQueryDto } from './dto/v1-file.dto';
import { V1Directory } from './v1-directory.decorator';
import { V1ErrorFilter } from './v1-error.filter';
import { V1FilesService } from './v1-files.service';

/** opencode 1.18.33's file routes: the TUI's `@` file picker (`find.files`), `file.list` and `file.read`. */
@ApiExcludeController()
@Controller()
@UseFilters(V1ErrorFilter)
export class V1FilesController {
  constructor(private readonly files: V1FilesService) {}

  @Get('find/file')
  find(@Query() query: V1FindFilesQueryDto, @V1Directory() directory?: string) {
    return this.files.find(query, directory);
  }

  @Get('file')
  list(@Query() query: V1FilePathQueryDto, @V1Directory() directory?: string) {
    return this.files.list(query.path, directory);
  }

  @Get('file/content')
  read(@Query() query: V1FilePathQueryDto, @V1Directory() directory?: string) {
    return this.files.read(query.path, directory);
  }
}
