import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../sessions/dto/page-query.dto';

/** `GET /api/session/{id}/message`: the transcript in pages, oldest first unless `order` is `desc`. */
export class ListMessagesQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}
