/**
 * State outside React that components read with `useSyncExternalStore(store.subscribe, store.getState)`:
 * sessions with timing rules of their own (the agent editor, the test chat) extend it and call `set`.
 */
export class ExternalStore<S extends object> {
  private readonly listeners = new Set<() => void>();

  constructor(protected state: S) {}

  getState = (): S => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  protected set(patch: Partial<S>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
