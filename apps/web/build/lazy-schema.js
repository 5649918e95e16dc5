/**
 * A value built on first use (the web build's API schemas, see client-route-schemas.ts). The proxy stands
 * for the value everywhere (in other schemas' shapes, in forms): every read, call and check goes to the
 * value, built the first time one is made.
 * @template {object} T
 * @param {() => T} make
 * @returns {T}
 */
export function lazySchema(make) {
  /** @type {T | undefined} */
  let value;
  const real = () => {
    value ??= make();
    return value;
  };
  return /** @type {T} */ (
    new Proxy(
      {},
      {
        get: (_target, key) => Reflect.get(real(), key),
        set: (_target, key, next) => Reflect.set(real(), key, next),
        has: (_target, key) => Reflect.has(real(), key),
        ownKeys: () => Reflect.ownKeys(real()),
        getOwnPropertyDescriptor: (_target, key) => {
          const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
          // The target has no properties: a proxy may not report one that cannot be reconfigured.
          return descriptor && { ...descriptor, configurable: true };
        },
        defineProperty: (_target, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
        deleteProperty: (_target, key) => Reflect.deleteProperty(real(), key),
        getPrototypeOf: () => Reflect.getPrototypeOf(real()),
      },
    )
  );
}
