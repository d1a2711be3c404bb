// oncePer: a value built once per key object (an isolate's env, a store, a schema) and kept as long as the key lives.

/** `build(key)` on a key's first call, the same value on every later call; held in a WeakMap, so it goes with its key. */
export function oncePer<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key);
      built.set(key, value);
    }
    return value;
  };
}
