/**
 * A part one runtime adds to code that runs everywhere: a loader the runtime's entry registers
 * (the Node entry's `() => import('…')`, so nothing of the part is bundled or loaded until used),
 * and what it loaded, kept. The stdio launcher, the HTTP transports' Node engine and OAuth's Node
 * parts each keep one. A failed load is not kept: the next use tries again.
 */
export class LazyPart<T> {
  private load: (() => Promise<T>) | undefined;
  private loading: Promise<T> | undefined;
  private value: T | undefined;

  /** Registers `load` (`undefined`: none) and returns the loader it replaced; a new loader forgets what was loaded. */
  set(load: (() => Promise<T>) | undefined): (() => Promise<T>) | undefined {
    const previous = this.load;
    if (load === previous) return previous;
    this.load = load;
    this.loading = undefined;
    this.value = undefined;
    return previous;
  }

  /** The registered loader, if any. */
  get loader(): (() => Promise<T>) | undefined {
    return this.load;
  }

  /** What the loader gave, once it has (for a synchronous fast path). */
  get loaded(): T | undefined {
    return this.value;
  }

  /** Loads the part once; `undefined` when no loader is registered. */
  get(): Promise<T | undefined> {
    const load = this.load;
    if (load === undefined) return Promise.resolve(undefined);
    const loading = (this.loading ??= load().then((value) => {
      if (this.load === load) this.value = value;
      return value;
    }));
    loading.catch(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    return loading;
  }
}
