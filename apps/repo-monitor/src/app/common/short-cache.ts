/**
 * Remembers an async value for a short time. Settings are read on hot paths (every inbound
 * delivery, every notification); console changes still apply within `ttlMs`.
 *
 * On SQLite a flow inside a transaction holds the one connection: it must never wait for a load
 * that another flow started, because that load's query is queued behind the very transaction that
 * waits for it. `holdsConnection` tells the cache so; such a flow then loads for itself.
 */
export class ShortCache<T> {
  private value:
    | { at: number; promise: Promise<T>; startedByHolder: boolean }
    | undefined;
  private readonly settled = new WeakSet<Promise<T>>();

  constructor(
    private readonly load: () => Promise<T>,
    private readonly ttlMs = 2000,
    private readonly holdsConnection: () => boolean = () => false,
  ) {}

  get(): Promise<T> {
    const now = Date.now();
    const holding = this.holdsConnection();
    const current = this.value;
    if (current && now - current.at <= this.ttlMs) {
      if (
        !holding ||
        current.startedByHolder ||
        this.settled.has(current.promise)
      )
        return current.promise;
      return this.load();
    }
    const promise = this.load();
    const entry = { at: now, promise, startedByHolder: holding };
    this.value = entry;
    promise.then(
      () => this.settled.add(promise),
      () => {
        if (this.value === entry) this.value = undefined;
      },
    );
    return promise;
  }

  clear(): void {
    this.value = undefined;
  }
}
