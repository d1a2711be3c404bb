// JSON Merge Patch (RFC 7396): an object patch sets its keys, null removes one, anything else replaces the target.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `target` with `patch` merged in (RFC 7396 §2); neither argument is changed. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else
      Object.defineProperty(out, key, {
        value: mergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value),
        writable: true,
        enumerable: true,
        configurable: true,
      });
  }
  return out;
}
