import { Module } from '@nestjs/common';
import { SavedPermissionsController } from './saved-permissions.controller';

/** The v2 list of a project's saved permissions (always empty: Outpost keeps them on the session). */
@Module({ controllers: [SavedPermissionsController] })
export class SavedPermissionsModule {}
