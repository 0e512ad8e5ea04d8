import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { LocationRefDto } from '../../locations/dto/location-query.dto';

/**
 * `{ info, messages, location? }`. `info` and each message are checked member by member by the transfer
 * schema (`transfer-schema.ts`), which names the failing path (`messages.12.type`).
 */
export class ImportSessionDto {
  /** `Session.Info` as exported. */
  @IsObject()
  info!: Record<string, unknown>;

  /** `Session.Message.Info[]` in transcript order. */
  @IsArray()
  messages!: unknown[];

  /** Where to import; else `info.location`, else the server default. */
  @IsOptional()
  @ValidateNested()
  @Type(() => LocationRefDto)
  location?: LocationRefDto | null;
}
