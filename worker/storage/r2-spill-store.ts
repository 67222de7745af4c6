/** R2SpillStore: oversized tool results and turn traces in the R2 bucket `SPILLS`. */
import type { SpillStore } from "../ports/spill-store";

/** Spills in R2. */
export class R2SpillStore implements SpillStore {
  constructor(private readonly bucket: R2Bucket) {}

  async put(key: string, text: string): Promise<void> {
    await this.bucket.put(key, text, { httpMetadata: { contentType: "application/json; charset=utf-8" } });
  }

  async get(key: string): Promise<string | null> {
    const object = await this.bucket.get(key);
    return object ? await object.text() : null;
  }
}
