/** Attacks on the server itself: bodies, methods, hosts, slow clients, the files of the embedded database. */
import { readdirSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { type Attack, AttackSucceeded } from "./kit";

type RawAnswer = { status: number; head: string; body: string; closed: boolean; timedOut: boolean };

/**
 * Sends raw bytes (what fetch refuses to send: a false Content-Length, TRACE, a forged Host) and then `drip`, one
 * character every 200 ms, until the server answers and closes, or `waitMs` passes.
 */
function raw(baseURL: string, request: string, { drip = "", waitMs = 10_000 } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let sent = 0;
    const dripping = setInterval(() => {
      if (drip && socket.writable) socket.write(drip[sent++ % drip.length]!);
    }, 200);
    const finish = (closed: boolean, timedOut: boolean) => {
      clearInterval(dripping);
      clearTimeout(deadline);
      socket.destroy();
      const [head = "", body = ""] = received.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body, closed, timedOut });
    };
    const deadline = setTimeout(() => finish(false, true), waitMs);
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("close", () => finish(true, false));
    socket.on("error", () => undefined);
    socket.write(request);
  });
}

const hostOf = (baseURL: string) => new URL(baseURL).host;

/** Every answer of the server to a raw request: never a 5xx. */
function noServerError(answer: RawAnswer, what: string) {
  if (answer.status >= 500) throw new AttackSucceeded(`${what}: the server failed with ${answer.status}`);
}

export const platformAttacks: Attack[] = [
  {
    name: "announce a 100 MB body to every kind of endpoint and make the server wait for it",
    async run({ baseURL, origin }) {
      for (const target of [
        "/api/cart/quote",
        "/api/stripe/webhook",
        "/api/user/activity",
        "/api/auth/sign-in/email",
        "/api/auth/sign-up/email",
        "/api/storage/v0/b/uploads/o?name=users%2Fx%2Fa.pdf",
        "/order/lookup",
        "/contact",
        "/payment",
      ]) {
        // Only the headers go: an answer means the server did not wait for (or read) the body.
        const answer = await raw(
          baseURL,
          `POST ${target} HTTP/1.1\r\nHost: ${hostOf(baseURL)}\r\nOrigin: ${origin}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{"lines":[`,
        );
        noServerError(answer, target);
        if (answer.status !== 413) {
          throw new AttackSucceeded(
            `${target} ${answer.timedOut ? "waited for the 100 MB body" : `answered ${answer.status}`}`,
          );
        }
        if (!answer.closed)
          throw new AttackSucceeded(`${target} kept the connection for the rest of the body`);
      }
    },
  },
  {
    name: "post to every kind of endpoint without saying the body's length, to leave its reader waiting",
    async run({ baseURL, origin }) {
      // No Content-Length nor Transfer-Encoding: an empty body (RFC 9112 6.3). Node may hand such a request over with
      // its body already ended, which never tells a reader it ended (server/http-server.ts); each must be answered.
      for (const target of [
        "/contact",
        "/contact.data",
        "/order/lookup",
        "/api/cart/quote",
        "/api/auth/sign-in/email",
        "/api/storage/v0/b/uploads/o?name=users%2Fx%2Fa.pdf",
        "/cart",
      ]) {
        const answer = await raw(
          baseURL,
          `POST ${target} HTTP/1.1\r\nHost: ${hostOf(baseURL)}\r\nOrigin: ${origin}\r\n` +
            `Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n\r\n`,
          { waitMs: 5000 },
        );
        noServerError(answer, target);
        if (answer.timedOut || answer.status === 0)
          throw new AttackSucceeded(`${target} left the request waiting for a body that will not come`);
      }
    },
  },
  {
    name: "stream an endless chunked body into the cart quote and better-auth",
    async run({ baseURL, origin }) {
      for (const target of ["/api/cart/quote", "/api/auth/sign-up/email"]) {
        let sent = 0;
        const chunk = new Uint8Array(64 * 1024).fill(32);
        const limit = 64 * 1024 * 1024;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent >= limit) return controller.close();
            sent += chunk.byteLength;
            controller.enqueue(chunk);
          },
        });
        const status = await fetch(`${baseURL}${target}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin },
          body,
          duplex: "half",
        } as RequestInit).then(
          (response) => response.status,
          () => 0, // the connection was cut: refused too
        );
        if (status >= 500) throw new AttackSucceeded(`${target}: the server failed with ${status}`);
        if (sent >= limit) throw new AttackSucceeded(`${target} read all ${sent} bytes (answered ${status})`);
      }
    },
  },
  {
    name: "post a 1 MB form to the order lookup and get it echoed back in the page",
    async run({ send, refused, expectStatus }) {
      const payload = "x".repeat(1024 * 1024);
      const response = await send("/order/lookup", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ number: "1002", email: payload }),
      });
      await expectStatus(response, 413, "a 1 MB form");
      const text = await response.text();
      refused(text.length < 1000 && !text.includes("x".repeat(100)), `the answer was ${text.length} bytes`);
    },
  },
  {
    name: "hold connections open by sending the headers, or the body, a byte at a time (slowloris)",
    async run({ baseURL }) {
      const host = hostOf(baseURL);
      const [headers, body] = await Promise.all([
        raw(baseURL, `GET / HTTP/1.1\r\nHost: ${host}\r\n`, { drip: "X-Slow: a\r\n", waitMs: 25_000 }),
        raw(
          baseURL,
          `POST /api/cart/quote HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
            `Content-Length: 100000\r\n\r\n{`,
          { drip: " ", waitMs: 25_000 },
        ),
      ]);
      for (const [what, answer] of [
        ["slow headers", headers],
        ["a slow body", body],
      ] as const) {
        noServerError(answer, what);
        if (answer.timedOut) throw new AttackSucceeded(`${what} kept the connection open for 25 s`);
        if (answer.status !== 408) throw new AttackSucceeded(`${what} got ${answer.status} instead of 408`);
      }
    },
  },
  {
    name: "send TRACE, WebDAV and other methods the store does not serve",
    async run({ baseURL, send, expectStatus }) {
      const host = hostOf(baseURL);
      for (const [method, target] of [
        ["TRACE", "/"],
        ["TRACE", "/api/auth/get-session"],
        ["PROPFIND", "/api/cart/quote"],
        ["MKCOL", "/"],
        ["SEARCH", "/search"],
        ["PURGE", "/"],
        ["LOCK", "/admin"],
        ["CONNECT", "/"],
        ["PUT", "/payment"],
        ["PATCH", "/user/logout"],
        ["DELETE", "/api/cart/quote"],
        // The APIs that only take data answer a read the same way, not with an error of the app.
        ["GET", "/api/cart/quote"],
        ["HEAD", "/api/stripe/webhook"],
        ["GET", "/api/user/activity"],
      ]) {
        const answer = await raw(
          baseURL,
          `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
        );
        noServerError(answer, `${method} ${target}`);
        if (answer.status !== 405 || !/\r\nAllow: /i.test(answer.head)) {
          throw new AttackSucceeded(`${method} ${target} was answered ${answer.status}, not 405 with Allow`);
        }
      }
      for (const target of ["/api/cart/quote", "/", "/api/auth/sign-in/email"]) {
        await expectStatus(await send(target, { method: "OPTIONS" }), 204, `OPTIONS ${target}`);
      }
    },
  },
  {
    name: "forge the Host header: links and redirects to another site, malformed hosts",
    async run({ baseURL, origin }) {
      const store = new URL(baseURL).origin;
      for (const lines of [
        "Host: evil.example",
        `Host: ${hostOf(baseURL)}\r\nX-Forwarded-Host: evil.example`,
      ]) {
        const answer = await raw(
          baseURL,
          `GET /user/login?redirectTo=%2Fcart HTTP/1.1\r\n${lines}\r\nConnection: close\r\n\r\n`,
        );
        noServerError(answer, lines);
        const location = /\r\nLocation: ([^\r]*)/i.exec(answer.head)?.[1];
        if (answer.status !== 301 || !location?.startsWith(`${store}/`)) {
          throw new AttackSucceeded(
            `${lines.replace(/\r\n/g, ", ")}: answered ${answer.status} ${location ?? ""}`,
          );
        }
        if (`${answer.head}${answer.body}`.includes("evil.example")) {
          throw new AttackSucceeded(`${lines.replace(/\r\n/g, ", ")}: the answer names the forged host`);
        }
      }
      // A password reset asked through another host would mail a link built from it: refused as misdirected.
      const resetBody = JSON.stringify({ email: "admin@example.com", redirectTo: "/user/reset-password" });
      const reset = await raw(
        baseURL,
        `POST /api/auth/request-password-reset HTTP/1.1\r\nHost: evil.example\r\nOrigin: ${origin}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(resetBody)}\r\n` +
          `Connection: close\r\n\r\n${resetBody}`,
      );
      noServerError(reset, "a password reset through another host");
      if (reset.status !== 421) throw new AttackSucceeded(`a reset through another host got ${reset.status}`);
      for (const hostLine of [
        "Host: a b",
        "Host: [::1",
        "Host: x/y",
        "Host: user@evil.example",
        "Host:",
        `Host: ${hostOf(baseURL)}\r\nX-Forwarded-Host: a b`,
        `Host: ${hostOf(baseURL)}\r\nX-Forwarded-Proto: a b`,
      ]) {
        const answer = await raw(baseURL, `GET / HTTP/1.1\r\n${hostLine}\r\nConnection: close\r\n\r\n`);
        noServerError(answer, hostLine);
        if (answer.status !== 400) throw new AttackSucceeded(`${hostLine} was answered ${answer.status}`);
      }
    },
  },
  {
    name: "send the whole address as the request's target, as to a proxy, or a target that is no address",
    async run({ baseURL }) {
      const store = new URL(baseURL).origin;
      const host = hostOf(baseURL);
      const ask = (requestLine: string) =>
        raw(baseURL, `${requestLine} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      const own = await ask(`GET ${store}/cart`);
      noServerError(own, `GET ${store}/cart`);
      if (own.status !== 200) throw new AttackSucceeded(`GET ${store}/cart was answered ${own.status}`);
      // The address's host stands for the Host header: another one is sent to the store's own address.
      const other = await ask("GET http://evil.example/user/login?redirectTo=%2Fcart");
      noServerError(other, "GET http://evil.example/...");
      const location = /\r\nLocation: ([^\r]*)/i.exec(other.head)?.[1];
      if (other.status !== 301 || !location?.startsWith(`${store}/`))
        throw new AttackSucceeded(
          `GET http://evil.example/... was answered ${other.status} ${location ?? ""}`,
        );
      if (`${other.head}${other.body}`.includes("evil.example"))
        throw new AttackSucceeded("GET http://evil.example/...: the answer names that host");
      const post = await ask(`POST ${store}/contact`);
      noServerError(post, `POST ${store}/contact`);
      for (const requestLine of ["GET *", "GET ftp://files.example/a", "POST *"]) {
        const answer = await ask(requestLine);
        noServerError(answer, requestLine);
        if (answer.status !== 400) throw new AttackSucceeded(`${requestLine} was answered ${answer.status}`);
      }
    },
  },
  {
    name: "read the embedded database's files (password hashes, sessions, reset tokens) as another local user",
    async run({ baseURL }) {
      const dataDir = `test-results/attack-data-${new URL(baseURL).port}`;
      const open: string[] = [];
      const visit = (entry: string) => {
        const stat = statSync(entry);
        if (stat.mode & 0o077) open.push(`${entry} ${(stat.mode & 0o777).toString(8)}`);
        if (stat.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
      };
      visit(dataDir);
      if (open.length > 0) {
        throw new AttackSucceeded(`${open.length} entries others may use: ${open.slice(0, 5).join(", ")}`);
      }
    },
  },
];
