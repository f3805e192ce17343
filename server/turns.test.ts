import http from "node:http";
import express from "express";
import { describe, expect, it } from "vitest";
import { serverFor } from "../tests/support/http-server";
import { recordingLogger } from "../tests/support/logger";
import { BUSY_MESSAGE, sendBusy } from "./availability";
import { takeTurns } from "./turns";

/** Keeps the thread busy for `ms`, as a render does. */
function work(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * The store's HTTP server around an app whose one page costs `ms` of CPU and takes its turn; `port()` once it
 * listens. `lines()` is what it logged.
 */
function storeOf(ms: number, mostWaiting?: number) {
  const { logger, lines } = recordingLogger();
  const app = express();
  app.get("/", takeTurns({ refuse: sendBusy, mostWaiting, logger, reportEveryMs: 1000 }), (_req, res) => {
    work(ms);
    res.type("text/plain").send("ok");
  });
  return { ...serverFor(app, { HEADERS_TIMEOUT_SECONDS: 10, REQUEST_TIMEOUT_SECONDS: 10 }), lines };
}

type Answer = { status: number; body: string; retryAfter: string | undefined };

/** A client on a connection of its own, kept open between its requests, as a browser or a crawler keeps one. */
function client(port: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: () =>
      new Promise<Answer>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: "/", agent, headers: { accept: "text/html" } }, (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (body += chunk));
            res.on("end", () =>
              resolve({ status: res.statusCode!, body, retryAfter: res.headers["retry-after"] }),
            );
          })
          .on("error", reject);
      }),
    close: () => agent.destroy(),
  };
}

describe("requests taking turns", () => {
  const { port } = storeOf(3);

  it("answers visitors who connect while kept connections keep the store busy in their turn, not after them", async () => {
    // Thirty connections ask for a page again as soon as each answer comes, as a crawler's would.
    const busy = Array.from({ length: 30 }, () => client(port()));
    let answered = 0;
    let stop = false;
    const loops = busy.map(async (one) => {
      while (!stop) {
        expect((await one.get()).status).toBe(200);
        answered++;
      }
    });
    while (answered < 60) await new Promise((resolve) => setTimeout(resolve, 5));

    // Ten visitors connect at once. Without turns each waited for a turn of the loop that answered every busy
    // connection (libuv accepts one connection a turn): some 250 answers to the crawler before the last visitor's.
    const before = answered;
    const visitors = Array.from({ length: 10 }, () => client(port()));
    const answers = await Promise.all(visitors.map((visitor) => visitor.get()));
    const meanwhile = answered - before;
    stop = true;
    await Promise.all(loops);
    for (const one of [...busy, ...visitors]) one.close();

    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    // In turn: each visitor waits behind the thirty requests already waiting and the visitors before it (about 40).
    expect(meanwhile).toBeLessThan(100);
  });
});

describe("a store with more requests waiting than it takes", () => {
  const { port, lines } = storeOf(20, 3);

  it("tells the newcomers it is busy at once (503, Retry-After) and answers those that wait", async () => {
    const clients = Array.from({ length: 9 }, () => client(port()));
    // Each connection open first, so the nine requests below reach the store in the same turn of its loop.
    await Promise.all(clients.map((one) => one.get()));
    const answers = await Promise.all(clients.map((one) => one.get()));
    for (const one of clients) one.close();

    const served = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 503);
    // One starts, three wait for their turn, the other five are told at once.
    expect(served).toHaveLength(4);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.body).toContain(BUSY_MESSAGE);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // The owner hears of it: a line for the first refused at once.
    const warnings = lines().filter((line) => line.msg.startsWith("the store is too busy"));
    expect(warnings).toEqual([expect.objectContaining({ level: 40, refused: 1, waiting: 3 })]);
    // The others refused within the interval are told together when it ends, none left out.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(lines().filter((line) => line.msg.startsWith("the store is too busy"))).toEqual([
      expect.objectContaining({ level: 40, refused: 1 }),
      expect.objectContaining({ level: 40, refused: 4 }),
    ]);
  });
});

describe("the turns themselves", () => {
  it("starts every waiting request once, in arrival order, one a turn, past the thousand it lets go of at a time", async () => {
    const turns = takeTurns({
      refuse: () => expect.unreachable("none is refused"),
      mostWaiting: 5000,
      logger: recordingLogger().logger,
    });
    const started: number[] = [];
    const arrive = (n: number) =>
      turns(
        { socket: { destroyed: n % 7 === 3 } } as unknown as Parameters<typeof turns>[0],
        {} as Parameters<typeof turns>[1],
        () => started.push(n),
      );
    for (let n = 0; n < 2500; n++) arrive(n);
    // The first starts at once; the others wait, a seventh of them from clients gone by their turn.
    expect(started).toEqual([0]);
    expect(turns.waiting()).toBe(2499);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    while (turns.waiting() > 0) await new Promise((resolve) => setImmediate(resolve));
    const expected = Array.from({ length: 2500 }, (_, n) => n).filter((n) => n % 7 !== 3);
    expect(started).toEqual(expected);
  });
});
