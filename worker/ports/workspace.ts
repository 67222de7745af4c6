/**
 * Port: the per-user file workspace (`read_file`, `write_file`, `list_files`). Paths are already
 * jailed (`lib/workspace-path.ts`) when they reach it; the R2 adapter keeps each user under its own
 * prefix.
 */

/** A stored file's metadata. */
export interface WorkspaceEntry {
  path: string;
  size: number;
  /** ISO time of the last write. */
  updatedAt: string;
}

/** A stored file. */
export interface WorkspaceFile extends WorkspaceEntry {
  bytes: Uint8Array;
  contentType: string;
}

/** One user's files. */
export interface Workspace {
  /** The file, or null when there is none. */
  get(userId: string, path: string): Promise<WorkspaceFile | null>;
  /** Writes (or replaces) a file. */
  put(userId: string, path: string, bytes: Uint8Array, contentType: string): Promise<WorkspaceEntry>;
  /** Files under `prefix` ("" = all, else ending in `/`), by path, at most `limit`. */
  list(userId: string, prefix: string, limit: number): Promise<{ files: WorkspaceEntry[]; truncated: boolean }>;
}
