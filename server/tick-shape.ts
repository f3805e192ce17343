import { createHook } from "node:async_hooks";

/** One entry of `process.nextTick`'s queue, held for the life of the process (see keepTickShape). */
let heldTick: object | undefined;

/**
 * Keeps V8's hidden classes of `process.nextTick`'s queue entries alive for the life of the process. Nothing else
 * holds them while no entry is queued: a full garbage collection then frees them, the next entries get new ones, and
 * after five or six such collections (a store's start makes them) the literal in Node's nextTick that builds each entry
 * has seen too many and takes V8's generic slow path for good: 12% of a cached page's CPU, by far the largest part of
 * what a cached page cost beyond a bare Node server's (docs/decisions/0043-nextTick-entries-keep-their-shape.md).
 * One entry held keeps them, since an object holds its hidden class and that class the ones before it.
 */
export function keepTickShape(): void {
  if (heldTick) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject") heldTick = resource as object;
    },
  }).enable();
  try {
    process.nextTick(() => undefined);
  } finally {
    hook.disable();
  }
}
