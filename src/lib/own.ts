// Own-property access for records keyed by caller-chosen ids, so "__proto__", "constructor" or "toString" are plain ids.

/** The record's own value at `key`, never one inherited from Object.prototype. */
export function own<T>(rec: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined;
}

/** Sets an own, enumerable data property (plain assignment to "__proto__" would replace the prototype instead). */
export function putOwn<T>(rec: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(rec, key, { value, writable: true, enumerable: true, configurable: true });
}
