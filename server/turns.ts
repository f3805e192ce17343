import type { RequestHandler } from "express";
import type { Logger } from "~/lib/logger.server";

/**
 * Requests that run the app (pages, their data, forms) start in the order they came, one at each turn of the event
 * loop while others wait (docs/decisions/0045-requests-take-turns.md).
 *
 * libuv accepts one new connection per turn of the loop. Without turns, one turn of a busy store runs every request
 * that arrived on the connections it has: fifty keep-alive connections asking for pages make a turn of fifty renders,
 * and a visitor who connects meanwhile waits that long to be accepted, behind every other newcomer, each a turn of
 * its own: seconds, while the connections already open are answered in a fraction of that. Taking turns keeps a turn
 * of the loop to about one request's work, so a newcomer is accepted at once and answered in the order it came.
 *
 * Past `mostWaiting` requests waiting, a newcomer is refused at once (`refuse`, a 503 that says the store is busy)
 * instead of waiting behind them all, and the log says so, at most every REPORT_EVERY_MS with the number refused
 * since the last line; a request whose client has gone by its turn is dropped without costing one.
 */
export function takeTurns({
  perTurn = 1,
  mostWaiting = MOST_WAITING,
  refuse,
  logger,
  reportEveryMs = REPORT_EVERY_MS,
}: {
  perTurn?: number;
  mostWaiting?: number;
  refuse: RequestHandler;
  logger: Logger;
  /** How often at most the log says that requests were refused. */
  reportEveryMs?: number;
}): RequestHandler & { waiting(): number } {
  const queue: Array<(() => void) | undefined> = [];
  let head = 0;
  let startsLeft = perTurn;
  let turnScheduled = false;
  let refused = 0;
  let reportedAt = -Infinity;
  let reportDue: NodeJS.Timeout | undefined;

  const nextTurn = () => {
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(turn);
    }
  };
  function turn() {
    turnScheduled = false;
    startsLeft = perTurn;
    while (startsLeft > 0 && head < queue.length) {
      const start = queue[head]!;
      queue[head++] = undefined;
      start();
    }
    // The started are let go of: at once when none waits, in one step past a thousand while some always do.
    if (head === queue.length || head >= 1024) {
      queue.splice(0, head);
      head = 0;
    }
    if (head < queue.length || startsLeft < perTurn) nextTurn();
  }
  const waiting = () => queue.length - head;
  const report = () => {
    reportDue = undefined;
    logger.warn(
      { refused, waiting: waiting() },
      "the store is too busy: requests were answered 503 at once, as many others already waited for their turn",
    );
    refused = 0;
    reportedAt = performance.now();
  };

  const handler: RequestHandler = (req, res, next) => {
    if (startsLeft > 0 && waiting() === 0) {
      startsLeft--;
      nextTurn();
      return next();
    }
    if (waiting() >= mostWaiting) {
      // The first refusal is told at once; those after it within the interval, together when it ends.
      refused++;
      if (!reportDue) {
        const wait = reportedAt + reportEveryMs - performance.now();
        if (wait <= 0) report();
        else reportDue = setTimeout(report, wait).unref();
      }
      return refuse(req, res, next);
    }
    queue.push(() => {
      if (req.socket.destroyed) return;
      startsLeft--;
      next();
    });
    nextTurn();
  };
  return Object.assign(handler, { waiting });
}

/**
 * Requests that may wait for their turn: at 100 to 300 renders a second on one core, 3 to 10 seconds' worth. A
 * browser would wait longer, but past that a visitor is better told that the store is busy and to try again.
 */
const MOST_WAITING = 1000;

/** How often at most the log says that requests were refused, unless told otherwise. */
const REPORT_EVERY_MS = 10_000;
