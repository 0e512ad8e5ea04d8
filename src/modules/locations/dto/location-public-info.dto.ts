export class ProjectDto {
  id: string;
  directory: string;
  canonical: string;
}

/** `Location.PublicInfo`: what the `location` member of `{ location, data }` envelopes carries. */
export class LocationPublicInfoDto {
  directory: string;
  project: ProjectDto;
}
