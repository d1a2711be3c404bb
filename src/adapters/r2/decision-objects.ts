// DecisionObjects over an R2 bucket binding (DECISION_LOG): put, get and paged list of the decision log's objects.
import type { DecisionObjects } from "../../ports/decision-log";

export function createR2DecisionObjects(bucket: R2Bucket): DecisionObjects {
  return {
    async put(key, body) {
      await bucket.put(key, body, { httpMetadata: { contentType: "application/x-ndjson" } });
    },
    async get(key) {
      const object = await bucket.get(key);
      return object ? object.text() : null;
    },
    async list(prefix, startAfter) {
      const keys: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix, startAfter, cursor, limit: 1000 });
        for (const o of page.objects) keys.push(o.key);
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return keys;
    },
  };
}
