import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export class MoveSessionDto {
  /** An absolute path of an existing directory. */
  @IsString()
  @MaxLength(4096)
  @Matches(/^\//, { message: 'directory must be an absolute path' })
  directory!: string;

  /** When a running session applies the move: at the next step boundary (`steer`) or after the run (`queue`). */
  @IsOptional()
  @IsIn(['steer', 'queue'])
  delivery?: 'steer' | 'queue' | null;
}
