/**
 * Remembers an async value for a short time. Settings are read on hot paths (every inbound
 * delivery, every notification); console changes still apply within `ttlMs`.
 */
export class ShortCache<T> {
  private value: { at: number; promise: Promise<T> } | undefined;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly ttlMs = 2000,
  ) {}

  get(): Promise<T> {
    const now = Date.now();
    if (!this.value || now - this.value.at > this.ttlMs) {
      const promise = this.load();
      this.value = { at: now, promise };
      promise.catch(() => {
        if (this.value?.promise === promise) this.value = undefined;
      });
    }
    return this.value.promise;
  }

  clear(): void {
    this.value = undefined;
  }
}
