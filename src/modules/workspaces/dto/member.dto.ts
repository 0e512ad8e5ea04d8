import { IsIn } from 'class-validator';
import { ROLES, Role } from '../../console-access/console-principal';

export class UpdateMemberDto {
  /** Only owners may make someone an owner or change an owner's role. */
  @IsIn(ROLES)
  role!: Role;
}

export class MemberDto {
  /** `usr_…` for people, `sa_…` for service accounts. */
  user_id!: string;
  email!: string | null;
  name!: string;
  /** Service accounts act with `admin` (All keys) or `member` (Inference-only keys) access; listed as `member`. */
  role!: Role;
  kind!: 'person' | 'service_account';
}

export class WorkspaceDto {
  id!: string;
  name!: string;
}

export class WorkspaceWithRoleDto {
  id!: string;
  name!: string;
  role!: Role;
}
