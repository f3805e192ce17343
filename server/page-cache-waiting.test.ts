import type http from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import express from "express";
import { beforeAll, describe, expect, it } from "vitest";
import { pageCacheServerFor } from "../tests/support/page-cache-server";

// Requests for an address being answered wait for that answer (it may be a page to keep) before they go on.
describe("requests waiting behind another for the same address", () => {
  /** The first request the app gets waits for this; any later one is answered at once. */
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  /** The addresses the server was sent, in order. */
  const received: string[] = [];
  /** Larger than what the connection's buffers hold, so that a client that reads nothing holds up the answer. */
  const BIG = "x".repeat(32 * 1024 * 1024);

  // An answer the cache does not keep (a script, a file), as the store's static files are.
  const app = express();
  app.get("/assets/entry.js", (_req, res) => {
    asked += 1;
    if (asked === 1) void released.then(() => res.type("text/javascript").send("first"));
    else res.type("text/javascript").send("later");
  });
  app.get("/assets/big.js", (_req, res) => res.type("text/javascript").send(BIG));
  const store = pageCacheServerFor("pglite", app);
  let port = 0;
  beforeAll(() => {
    port = store.port();
    store.server().on("request", (req: http.IncomingMessage) => received.push(req.url ?? ""));
  });

  it("are still answered after one of them left while it waited", async () => {
    const address = `http://127.0.0.1:${port}/assets/entry.js`;
    const first = fetch(address).then((response) => response.text());
    await sleep(100);
    // A second client asks for the same address while the first is being answered, and leaves before it is.
    const leaving = net.connect(port, "127.0.0.1");
    leaving.on("error", () => undefined);
    leaving.write(`GET /assets/entry.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    while (received.filter((url) => url === "/assets/entry.js").length < 2) await sleep(10);
    leaving.destroy();
    await sleep(100);
    release();
    expect(await first).toBe("first");
    await sleep(100);
    // The next visitor is answered, not left waiting for the one who left.
    const next = await fetch(address, { signal: AbortSignal.timeout(3000) });
    expect(await next.text()).toBe("later");
  });

  it("are answered while the one before them is still being sent to a client that reads slowly", async () => {
    // The first client asks for a large file and reads none of it: its answer cannot end.
    const slow = net.connect(port, "127.0.0.1");
    slow.on("error", () => undefined);
    slow.pause();
    slow.write(`GET /assets/big.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    while (!received.includes("/assets/big.js")) await sleep(10);
    await sleep(200);
    try {
      const next = await fetch(`http://127.0.0.1:${port}/assets/big.js`, {
        signal: AbortSignal.timeout(3000),
      });
      expect((await next.text()).length).toBe(BIG.length);
    } finally {
      slow.destroy();
    }
  });
});
