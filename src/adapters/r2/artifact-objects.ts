// ArtifactObjects over an R2 bucket (the ARTIFACTS binding): one object per artifact, SHA-256 checked by R2 on put.
import type { ArtifactObjects } from "../../ports/artifact-objects";

/** R2 deletes at most 1000 keys per call */
const DELETE_CHUNK = 1000;

export function createR2ArtifactObjects(bucket: R2Bucket): ArtifactObjects {
  return {
    async put(key, bytes, meta) {
      await bucket.put(key, bytes, {
        sha256: meta.sha256,
        httpMetadata: { contentType: meta.contentType },
        customMetadata: { uploaded_at: String(meta.uploadedAt) },
      });
    },
    async get(key) {
      const obj = await bucket.get(key);
      return obj ? { body: obj.body, size: obj.size } : null;
    },
    async delete(keys) {
      for (let i = 0; i < keys.length; i += DELETE_CHUNK) await bucket.delete(keys.slice(i, i + DELETE_CHUNK));
    },
    async list(prefix, cursor, limit) {
      const page = await bucket.list({ prefix, cursor, limit, include: ["customMetadata"] });
      return {
        objects: page.objects.map((o) => ({
          key: o.key,
          uploadedAt: Number(o.customMetadata?.uploaded_at ?? o.uploaded.getTime()),
        })),
        cursor: page.truncated ? page.cursor : undefined,
      };
    },
  };
}
