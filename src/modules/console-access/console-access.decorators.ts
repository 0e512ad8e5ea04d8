import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiCookieAuth, ApiHeader } from '@nestjs/swagger';
import { ApiErrorResponse } from '../docs/api-error.decorator';
import { Role } from './console-principal';

export const SIGNED_IN_ONLY = 'console:signed-in-only';
export const ALLOW_INFERENCE_KEYS = 'console:allow-inference-keys';
export const ORG_ROLE = 'console:org-role';
export const PERSON_ONLY = 'console:person-only';

/**
 * Only a person signed in with the console cookie may do this (invite, change roles, remove members,
 * create or revoke keys and tokens): any bearer credential, even an All key, gets 403 `Forbidden`.
 */
export const SignedInOnly = () =>
  applyDecorators(
    SetMetadata(SIGNED_IN_ONLY, true),
    ApiCookieAuth('cookie'),
    ApiErrorResponse(403, 'Forbidden', 'needs a person signed in with the console cookie'),
  );

/** A person must be behind the credential (cookie, user token, personal key, device token): not a service account. */
export const PersonOnly = () =>
  applyDecorators(
    SetMetadata(PERSON_ONLY, true),
    ApiErrorResponse(403, 'Forbidden', 'needs a person, not a service account'),
  );

/** Inference-only keys may call this console route (only `GET /console/api/v2/config` has it). */
export const AllowInferenceKeys = () => SetMetadata(ALLOW_INFERENCE_KEYS, true);

/**
 * The route acts in one workspace (from `{org}` in the path, the key's binding or `x-org-id`) and needs at
 * least this role there. A route with `{org}` in its path and no `@OrgRole` needs `member`.
 */
export const OrgRole = (role: Role) =>
  applyDecorators(
    SetMetadata(ORG_ROLE, role),
    ApiHeader({
      name: 'x-org-id',
      required: false,
      description: 'the workspace (org_<id>); required with a user token, must match a bound key',
    }),
    ApiErrorResponse(400, 'OrgRequired', 'a user token without x-org-id'),
    ApiErrorResponse(
      403,
      'Forbidden',
      `wrong workspace, not a member, a role below ${role}, or an Inference-only key`,
    ),
    ApiErrorResponse(404, 'NotFound', 'the workspace does not exist or was deleted'),
  );
