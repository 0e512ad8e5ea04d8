import { Injectable, OnModuleInit } from '@nestjs/common';
import { LocationReloadService } from '../../location-reload/location-reload.service';
import { QuestionRequestsService } from '../questions/question-requests.service';
import { PermissionRequestsService } from './permission-requests.service';

/** A location that shuts down (reload, plugin update) rejects its pending permission requests and questions. */
@Injectable()
export class PermissionReloadHook implements OnModuleInit {
  constructor(
    private readonly reloads: LocationReloadService,
    private readonly requests: PermissionRequestsService,
    private readonly questions: QuestionRequestsService,
  ) {}

  onModuleInit(): void {
    this.reloads.onLocationShutdown((location) => {
      this.requests.rejectAll('location reloaded', { directory: location.directory });
      this.questions.rejectAll('location reloaded', { directory: location.directory });
    });
  }
}
