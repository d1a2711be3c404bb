// Port: an artifact's bytes in R2 (the object under its row's key); the rows are the artifacts feature's store.

export type StoredObject = { body: ReadableStream<Uint8Array>; size: number };

export type ArtifactObjects = {
  /** stores the bytes under `key`; R2 checks the SHA-256 again on its side */
  put(key: string, bytes: Uint8Array, meta: { contentType: string; sha256: string; uploadedAt: number }): Promise<void>;
  get(key: string): Promise<StoredObject | null>;
  delete(keys: string[]): Promise<void>;
  /** a page of keys under `prefix` with their upload time (the orphan pass) */
  list(
    prefix: string,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ objects: { key: string; uploadedAt: number }[]; cursor: string | undefined }>;
};
