/** A project: the enclosing git worktree (id from its root commit), or the directory itself outside git. */
export interface Project {
  id: string;
  directory: string;
  canonical: string;
}

/** `Location.PublicInfo` of the API. */
export interface LocationPublicInfo {
  directory: string;
  project: Project;
}

/** A resolved location: the public info plus where it sits inside its project. */
export interface ResolvedLocation extends LocationPublicInfo {
  /** The directory relative to the project root ('' at the root). */
  subpath: string;
}
