import { Type } from '@nestjs/common';
import { Surface } from './config/env';
import { AuditModule } from './modules/audit/audit.module';
import { IdentityModule } from './modules/identity/identity.module';
import { InstanceAuthModule } from './modules/instance-auth/instance-auth.module';
import { KeysModule } from './modules/keys/keys.module';
import { LocationsModule } from './modules/locations/locations.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';

/**
 * The domain modules of each surface. `OUTPOST_SURFACES` picks which ones a process serves;
 * a new domain module is added to its surface's list here.
 */
export const SURFACE_MODULES: Record<Surface, Type[]> = {
  instance: [InstanceAuthModule, LocationsModule],
  console: [IdentityModule, WorkspacesModule, KeysModule, AuditModule],
  inference: [],
};
