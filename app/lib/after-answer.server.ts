import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "./logger.server";

type Answering = { answered: boolean; waiting: Array<() => void> };
const answering = new AsyncLocalStorage<Answering>();

/**
 * Express middleware: work a request hands to afterAnswer starts once its response has gone out (or the client
 * left). Started any earlier (on the next turn of the event loop, say) it would still run before a compressed
 * answer is written, and the answer would wait for it after all.
 */
export function holdWorkUntilAnswered(
  _req: unknown,
  res: { once(event: "finish" | "close", listener: () => void): unknown },
  next: () => void,
) {
  const state: Answering = { answered: false, waiting: [] };
  const release = () => {
    state.answered = true;
    for (const start of state.waiting.splice(0)) start();
  };
  res.once("finish", release);
  res.once("close", release);
  answering.run(state, next);
}

/**
 * Work a request starts that its answer must not wait for: begun once the answer is out (see holdWorkUntilAnswered;
 * outside a request, on the next turn of the event loop), its failure logged, since the client was answered
 * already. `settled()` waits for the work under way: a shutdown calls it before closing the database under it, and
 * tests before looking for what it wrote.
 */
export function createAfterAnswer(logger: Pick<Logger, "error">) {
  const pending = new Set<Promise<void>>();
  return {
    run(what: string, work: () => Promise<unknown>) {
      const state = answering.getStore();
      const answered = new Promise<void>((resolve) => {
        if (state && !state.answered) state.waiting.push(resolve);
        else setImmediate(resolve);
      });
      const done: Promise<void> = answered
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
