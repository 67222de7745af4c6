/**
 * R2Workspace: the per-user file workspace in the `SPILLS` bucket under `workspace/<userId>/` (the
 * user id URI-encoded, so it can never add a path level). Paths arrive already jailed.
 */
import type { Workspace, WorkspaceEntry, WorkspaceFile } from "../ports/workspace";

/** Key prefix of every workspace object. */
export const WORKSPACE_PREFIX = "workspace/";

/** Files in R2. */
export class R2Workspace implements Workspace {
  constructor(private readonly bucket: R2Bucket) {}

  private root(userId: string): string {
    return `${WORKSPACE_PREFIX}${encodeURIComponent(userId)}/`;
  }

  async get(userId: string, path: string): Promise<WorkspaceFile | null> {
    const object = await this.bucket.get(this.root(userId) + path);
    if (!object) return null;
    return {
      path,
      size: object.size,
      updatedAt: object.uploaded.toISOString(),
      bytes: new Uint8Array(await object.arrayBuffer()),
      contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
    };
  }

  async put(userId: string, path: string, bytes: Uint8Array, contentType: string): Promise<WorkspaceEntry> {
    const object = await this.bucket.put(this.root(userId) + path, bytes, { httpMetadata: { contentType } });
    return { path, size: object.size, updatedAt: object.uploaded.toISOString() };
  }

  async list(userId: string, prefix: string, limit: number): Promise<{ files: WorkspaceEntry[]; truncated: boolean }> {
    const root = this.root(userId);
    const listed = await this.bucket.list({ prefix: root + prefix, limit });
    return {
      files: listed.objects.map((o) => ({
        path: o.key.slice(root.length),
        size: o.size,
        updatedAt: o.uploaded.toISOString(),
      })),
      truncated: listed.truncated,
    };
  }
}
