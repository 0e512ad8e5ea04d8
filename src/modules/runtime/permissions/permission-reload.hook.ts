import { Injectable, OnModuleInit } from '@nestjs/common';
import { LocationReloadService } from '../../location-reload/location-reload.service';
import { PermissionRequestsService } from './permission-requests.service';

/** A location that shuts down (reload, plugin update) rejects its pending permission requests. */
@Injectable()
export class PermissionReloadHook implements OnModuleInit {
  constructor(
    private readonly reloads: LocationReloadService,
    private readonly requests: PermissionRequestsService,
  ) {}

  onModuleInit(): void {
    this.reloads.onLocationShutdown((location) => {
      this.requests.rejectAll('location reloaded', { directory: location.directory });
    });
  }
}
