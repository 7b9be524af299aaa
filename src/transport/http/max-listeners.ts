/**
 * Node warns when an EventTarget gets more than 10 listeners for one event; a transport's
 * lifetime signal legitimately has one per exchange in flight. `node:events`' `setMaxListeners`
 * is reached through `process.getBuiltinModule` where the runtime has it (Node, Deno, Bun), so
 * no bundle for a browser or a Worker sees a `node:` import; elsewhere nothing warns anyway.
 */

type Host = { process?: { getBuiltinModule?: (id: string) => unknown } };
type Events = { setMaxListeners?: (n: number, ...targets: EventTarget[]) => void };

let events: Events | null | undefined;

/** Lifts the listener warning's limit on `target` where the runtime has one; a no-op elsewhere. */
export function unlimitedListeners(target: EventTarget): void {
  if (events === undefined) {
    try {
      events = ((globalThis as Host).process?.getBuiltinModule?.('node:events') as Events | undefined) ?? null;
    } catch {
      events = null;
    }
  }
  events?.setMaxListeners?.(0, target);
}
