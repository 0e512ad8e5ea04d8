import { IsIn, IsString, MaxLength } from 'class-validator';

/** One rule of a `Permission.Ruleset`; the last matching rule wins. */
export class PermissionRuleDto {
  @IsString()
  @MaxLength(200)
  action!: string;

  /** A glob. */
  @IsString()
  @MaxLength(4096)
  resource!: string;

  @IsIn(['allow', 'deny', 'ask'])
  effect!: 'allow' | 'deny' | 'ask';
}
