import type { Logger } from "./logger.server";

/**
 * Work a request starts that its answer must not wait for: begun on the next turn of the event loop, once the
 * answer is on its way, and its failure logged (the client was answered already). `settled()` waits for the work
 * under way: a shutdown calls it before closing the database under it, and tests before looking for what it wrote.
 */
export function createAfterAnswer(logger: Pick<Logger, "error">) {
  const pending = new Set<Promise<void>>();
  return {
    run(what: string, work: () => Promise<unknown>) {
      const done: Promise<void> = new Promise((resolve) => setImmediate(resolve))
        .then(work)
        .then(
          () => undefined,
          (error: unknown) => logger.error({ err: error }, `${what} failed`),
        )
        .finally(() => pending.delete(done));
      pending.add(done);
    },
    async settled() {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}

export type AfterAnswer = ReturnType<typeof createAfterAnswer>;
