import { Type } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { LocationRefDto } from '../../locations/dto/location-query.dto';
import { SESSION_ID } from '../session-ids';
import { ModelRefDto } from './model-ref.dto';
import { UpdateSessionDto } from './update-session.dto';

/** `session.create`: every member optional (title, metadata and permissions as in an update); no others allowed. */
export class CreateSessionDto extends UpdateSessionDto {
  /** A client-chosen id in opencode's format (`ses_…`); a taken one is a 409. */
  @IsOptional()
  @Matches(SESSION_ID, { message: 'id must be a session id (ses_…)' })
  id?: string | null;

  /** Creates a child at the parent's location, inheriting its metadata unless `metadata` is given. */
  @IsOptional()
  @Matches(SESSION_ID, { message: 'parentID must be a session id (ses_…)' })
  parentID?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => ModelRefDto)
  model?: ModelRefDto | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => LocationRefDto)
  location?: LocationRefDto | null;
}
