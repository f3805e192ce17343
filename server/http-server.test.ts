import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import express from "express";
import { describe, expect, it } from "vitest";
import { serverFor } from "../tests/support/http-server";

/** Opens a connection, sends `start`, then one more byte of `drip` every 200 ms; resolves to what came back. */
function slowClient(port: number, start: string, drip: string) {
  return new Promise<string>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.writable && drip) socket.write(drip[sent++ % drip.length]!);
    }, 200);
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      resolve(received);
    });
    socket.write(start);
  });
}

describe("the HTTP server's limits on slow clients", () => {
  const { port } = serverFor(
    (req, res) => {
      req.resume();
      req.on("end", () => res.end("done"));
    },
    { HEADERS_TIMEOUT_SECONDS: 1, REQUEST_TIMEOUT_SECONDS: 2 },
  );

  it("answers 408 and closes the connection when the headers come too slowly", async () => {
    const answer = await slowClient(port(), "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X-Slow: a\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it("answers 408 and closes the connection when the body comes too slowly", async () => {
    const answer = await slowClient(
      port(),
      "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n",
      "a",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  });

  it("answers CONNECT with 405 instead of dropping the connection", async () => {
    const answer = await slowClient(
      port(),
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
      "",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/);
  });
});

describe("the request's target", () => {
  const { port } = serverFor(
    (req, res) => res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host })),
    { HEADERS_TIMEOUT_SECONDS: 5, REQUEST_TIMEOUT_SECONDS: 5 },
  );

  const send = (requestLine: string) =>
    slowClient(
      port(),
      `${requestLine} HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nConnection: close\r\n\r\n`,
      "",
    );
  const bodyOf = (answer: string) => answer.slice(answer.indexOf("\r\n\r\n") + 4);

  it("takes a full address as its path, with the address's host in place of the Host header", async () => {
    const answer = await send("GET http://shop.example:8080/antivirus/norton?page=2");
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(JSON.parse(bodyOf(answer))).toEqual({
      method: "GET",
      url: "/antivirus/norton?page=2",
      host: "shop.example:8080",
    });
  });

  it("passes a path and OPTIONS * as they are", async () => {
    expect(JSON.parse(bodyOf(await send("GET /cart?x=1")))).toMatchObject({ url: "/cart?x=1" });
    expect(JSON.parse(bodyOf(await send("OPTIONS *")))).toMatchObject({ method: "OPTIONS", url: "*" });
  });

  it("answers 400 with the reason to any other target", async () => {
    for (const target of ["GET *", "GET ftp://files.example/a", "POST *"]) {
      const answer = await send(target);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 Bad Request/);
      expect(bodyOf(answer), target).toBe(
        "The request's target must be a path (/like/this) or a full http:// or https:// address.",
      );
    }
  });
});

describe("a request without a body's length", () => {
  // What the app saw: the body's bytes once it ended, and whether it had ended before the app was called.
  const { port } = serverFor(
    (req, res) => {
      const endedOnArrival = req.readableEnded;
      if (endedOnArrival) return res.end(JSON.stringify({ method: req.method, endedOnArrival, bytes: 0 }));
      let bytes = 0;
      req.on("data", (chunk: Buffer) => (bytes += chunk.length));
      req.on("end", () => res.end(JSON.stringify({ method: req.method, endedOnArrival, bytes })));
    },
    { HEADERS_TIMEOUT_SECONDS: 5, REQUEST_TIMEOUT_SECONDS: 5 },
  );
  const send = (head: string) =>
    slowClient(port(), `${head}\r\nHost: 127.0.0.1:${port()}\r\nConnection: close\r\n\r\n`, "");
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as unknown;

  it("has its body ended before the app gets a GET or HEAD: no stream events to wait for", async () => {
    expect(bodyOf(await send("GET /antivirus HTTP/1.1"))).toEqual({
      method: "GET",
      endedOnArrival: true,
      bytes: 0,
    });
    const head = await send("HEAD /antivirus HTTP/1.1");
    expect(head).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it("still ends a POST's empty body as a stream does, so that whatever reads it is answered", async () => {
    // Sent without Content-Length or Transfer-Encoding (as `curl -X POST` does): an empty body (RFC 9112 6.3).
    expect(bodyOf(await send("POST /contact HTTP/1.1"))).toEqual({
      method: "POST",
      endedOnArrival: false,
      bytes: 0,
    });
    expect(bodyOf(await send("DELETE /api/x HTTP/1.1"))).toEqual({
      method: "DELETE",
      endedOnArrival: false,
      bytes: 0,
    });
  });

  it("reads a body sent with its length as before", async () => {
    const answer = await slowClient(
      port(),
      `GET /search HTTP/1.1\r\nHost: 127.0.0.1:${port()}\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc`,
      "",
    );
    expect(bodyOf(answer)).toEqual({ method: "GET", endedOnArrival: false, bytes: 3 });
  });
});

describe("a GET whose body was skipped, in Express", () => {
  // No route: Express's own final handler answers, once on-finished says the request was read to its end.
  const app = express();
  app.get("/failing", (_req, _res, next) => next(new Error("a handler failed")));
  const { port } = serverFor(app, { HEADERS_TIMEOUT_SECONDS: 5, REQUEST_TIMEOUT_SECONDS: 5 });

  it("is answered at once by Express's final handler (404, or 500 after an error)", async () => {
    const ask = (path: string) =>
      fetch(`http://127.0.0.1:${port()}${path}`, { signal: AbortSignal.timeout(3000) }).then(
        (res) => res.status,
      );
    expect(await ask("/nothing-here")).toBe(404);
    expect(await ask("/failing")).toBe(500);
  });
});

describe("an idle keep-alive connection", () => {
  const answered = (port: number) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    let closed = false;
    socket.on("data", (chunk) => (received += chunk.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => (closed = true));
    const ask = async () => {
      const before = received.length;
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      while (!received.slice(before).includes("\r\n\r\nok") && !closed) await sleep(20);
      return received.slice(before);
    };
    return { ask, closed: () => closed, end: () => socket.destroy() };
  };

  describe("with KEEP_ALIVE_TIMEOUT_SECONDS=1", () => {
    const { port } = serverFor((_req, res) => res.end("ok"), {
      HEADERS_TIMEOUT_SECONDS: 5,
      REQUEST_TIMEOUT_SECONDS: 5,
      KEEP_ALIVE_TIMEOUT_SECONDS: 1,
    });

    it("takes the next request within the time it names, and is closed by the server soon after", async () => {
      const client = answered(port());
      expect(await client.ask()).toMatch(/\r\nKeep-Alive: timeout=1\r\n/);
      await sleep(700);
      expect(await client.ask()).toMatch(/^HTTP\/1\.1 200 OK/);
      // Node closes an idle connection a second after the time it told the client (its keepAliveTimeoutBuffer).
      const idleSince = Date.now();
      while (!client.closed() && Date.now() - idleSince < 5000) await sleep(50);
      expect(client.closed()).toBe(true);
      expect(Date.now() - idleSince).toBeGreaterThan(900);
    });
  });
});
