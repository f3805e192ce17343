import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../tests/support/database";
import { type AppTestServer, startAppServer } from "../tests/support/app-server";
import { DEFAULT_BODY_LIMIT_BYTES } from "./body-limit";

const MiB = 1024 * 1024;

/** Headers of a POST that claims a body of `length` bytes. */
const postHead = (path: string, host: string, length: number, type = "application/json") =>
  `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;

describe.each(drivers)("the server on %s", (driver) => {
  let server: AppTestServer;
  let host: string;
  beforeAll(async () => {
    server = await startAppServer(driver);
    host = `127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
  });

  describe("request bodies", () => {
    it("refuses a declared 100 MB body at once, without waiting for a byte of it, and closes the connection", async () => {
      for (const path of [
        "/api/cart/quote",
        "/order/lookup",
        "/api/auth/sign-in/email",
        "/api/stripe/webhook",
      ]) {
        // Only the headers are sent: an answer now means the body was never waited for.
        const answer = await server.raw(postHead(path, host, 100 * MiB));
        expect(answer.status, path).toBe(413);
        expect(answer.closed, path).toBe(true);
        expect(answer.body, path).toMatch(/This request is too large: this address takes at most 128 KiB\./);
      }
      // An import's page speaks of its file, as the page itself does.
      for (const path of ["/admin/products/import", "/admin/keys.data"]) {
        const answer = await server.raw(postHead(path, host, 100 * MiB, "multipart/form-data; boundary=x"));
        expect(answer.status, path).toBe(413);
        expect(answer.body, path).toContain(
          "The file is larger than 1 MiB, the most one import takes: split it into smaller files.",
        );
      }
    });

    it("answers a moderately large body in the address's own terms and reads the rest, so the sender hears it", async () => {
      const big = "x".repeat(DEFAULT_BODY_LIMIT_BYTES + 1);
      const api = await fetch(`${server.url}/api/cart/quote`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: big,
      });
      expect(api.status).toBe(413);
      expect(await api.json()).toEqual({
        error: "This request is too large: this address takes at most 128 KiB.",
      });
      const page = await fetch(`${server.url}/order/lookup`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: `number=${big}`,
      });
      expect(page.status).toBe(413);
      expect(page.headers.get("content-type")).toMatch(/^text\/plain/);
      // Nothing of the post comes back.
      expect((await page.text()).length).toBeLessThan(200);
      const storage = await fetch(`${server.url}/api/storage/v0/b/uploads/o?name=users%2Fa%2Fbig.pdf`, {
        method: "POST",
        headers: { "content-type": "multipart/form-data; boundary=x", origin: server.url },
        body: "x".repeat(2 * MiB),
      });
      expect(storage.status).toBe(413);
      expect(await storage.json()).toEqual({
        // The uploader hears the file's limit (256 KiB here), not the request's (the file and its framing).
        error: {
          code: "storage/invalid-argument",
          message: "The file is larger than 256 KiB, the most one upload takes.",
        },
      });
    });

    it("cuts off a chunked body at the limit: the handler never sees more, and the sender is told", async () => {
      let sent = 0;
      const chunk = new Uint8Array(64 * 1024).fill(32);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 64 * MiB) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const answer = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body,
        duplex: "half",
      } as RequestInit).then(
        async (response) => ({ status: response.status, text: await response.text() }),
        () => ({ status: 0, text: "the connection was closed" }),
      );
      expect([413, 0]).toContain(answer.status);
      expect(sent).toBeLessThan(64 * MiB);
    });

    it("lets a body under the limit through to its handler", async () => {
      const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({
          email: "nobody@example.com",
          password: "not-the-password",
          padding: "x".repeat(100_000),
        }),
      });
      expect(response.status).toBe(401);
    });
  });

  describe("methods", () => {
    it("answers TRACE, WebDAV and other methods the store does not take with 405 and the Allow list", async () => {
      for (const [method, path] of [
        ["TRACE", "/"],
        ["PROPFIND", "/search"],
        ["MKCOL", "/contact"],
        ["PUT", "/payment"],
        ["PATCH", "/user/logout"],
        ["DELETE", "/api/auth/sign-out"],
        ["TRACE", "/api/auth/get-session"],
        ["CONNECT", "/"],
      ]) {
        const answer = await server.raw(
          `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
        );
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(answer.head, `${method} ${path}`).toMatch(/\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/);
      }
      const storage = await fetch(`${server.url}/api/storage/v0/b/uploads/o/a.png`, { method: "PUT" });
      expect(storage.status).toBe(405);
      expect(storage.headers.get("allow")).toBe("GET, HEAD, POST, DELETE, OPTIONS");
      expect(await storage.json()).toMatchObject({ error: { code: "storage/invalid-url" } });
    });

    it("answers OPTIONS with the methods of the address and nothing else", async () => {
      const response = await fetch(`${server.url}/search`, { method: "OPTIONS" });
      expect(response.status).toBe(204);
      expect(response.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      const quote = await fetch(`${server.url}/api/cart/quote`, { method: "OPTIONS" });
      expect(quote.status).toBe(204);
      expect(quote.headers.get("allow")).toBe("POST, OPTIONS");
    });

    it("answers a read of an API that only takes data with 405, the Allow list and the reason as JSON", async () => {
      for (const path of ["/api/cart/quote", "/api/stripe/webhook", "/api/user/activity"]) {
        for (const method of ["GET", "HEAD", "PUT"]) {
          const response = await fetch(`${server.url}${path}`, { method });
          expect(response.status, `${method} ${path}`).toBe(405);
          expect(response.headers.get("allow"), `${method} ${path}`).toBe("POST, OPTIONS");
          if (method !== "HEAD")
            expect(await response.json(), `${method} ${path}`).toEqual({
              error: `This address does not take ${method} requests; it takes POST.`,
            });
        }
      }
    });
  });

  describe("content security policy", () => {
    it("gives every response a nonce of its own, 16 random bytes, past a refill of the pool they come from", async () => {
      const nonces = new Set<string>();
      for (let n = 0; n < 300; n++) {
        const response = await fetch(`${server.url}/assets/no-such-file-${n}.js`);
        await response.arrayBuffer();
        const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
        expect(nonce && Buffer.from(nonce, "base64").length).toBe(16);
        nonces.add(nonce!);
      }
      expect(nonces.size).toBe(300);
    });
  });

  describe("addresses", () => {
    it("refuses a missing or malformed Host with 400", async () => {
      for (const line of [
        "Host: bad host",
        "Host: [::1",
        "Host: a/b",
        "Host: user@shop.example.com",
        "Host:",
      ]) {
        const answer = await server.raw(`GET / HTTP/1.1\r\n${line}\r\nConnection: close\r\n\r\n`);
        expect(answer.status, line).toBe(400);
        expect(answer.body, line).toContain("The Host header must name the store's address.");
      }
      // Forwarded headers from a proxy on this machine are held to the same rules.
      for (const line of [
        `X-Forwarded-Host: a b`,
        "X-Forwarded-Proto: a b",
        "X-Forwarded-Proto: javascript",
      ]) {
        const answer = await server.raw(
          `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host}\r\n${line}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
        );
        expect(answer.status, line).toBe(400);
      }
    });

    it("without PUBLIC_URL, takes the store's own requests at whatever address it was reached on", async () => {
      // Reached at 127.0.0.1 although the printed address is localhost: sign-up works.
      const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify({ email: "ada@example.com", password: "a-long-password", name: "Ada" }),
      });
      expect(response.status).toBe(200);
      // A post from any other origin is still refused, by better-auth and by the store.
      for (const origin of [`http://localhost:${server.port}`, "https://evil.example"]) {
        const refused = await fetch(`${server.url}/api/auth/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin },
          body: JSON.stringify({ email: "bob@example.com", password: "a-long-password", name: "Bob" }),
        });
        expect(refused.status, origin).toBe(403);
        expect(await refused.json(), origin).toEqual({
          error: expect.stringContaining("another site or address"),
        });
        const form = await fetch(`${server.url}/contact`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin },
          body: "name=x",
        });
        expect(form.status, origin).toBe(403);
        expect(await form.text()).toContain(`the store's own (${server.url})`);
      }
    });

    it("without PUBLIC_URL, lets a forged Host change nothing but the answer to that request", async () => {
      // The browser of a visitor sends the Host of the page it is on: a page elsewhere still cannot pass.
      const forged = await server.raw(
        postHead("/api/auth/sign-up/email", "evil.example", 2).replace(
          "\r\n\r\n",
          "\r\nOrigin: http://shop.example.com\r\nConnection: close\r\n\r\n",
        ) + "{}",
      );
      expect(forged.status).toBe(403);
    });
  });

  it("answers a failure inside a page with a short 500, never a stack trace, and logs it", async () => {
    const response = await fetch(`${server.url}/about`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).toBe("Something went wrong on our side. Please try again in a moment.");
    expect(server.logs().some((line) => line.msg === "request failed")).toBe(true);
  });

  it("logs a line for each request: its method, its address with the query's values left out, status and time", async () => {
    const response = await fetch(`${server.url}/healthz/live?token=s3cret&key=abc`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await expect
      .poll(() =>
        server.logs().filter((line) => line.msg === "request" && String(line.url).startsWith("/healthz")),
      )
      .toEqual([
        expect.objectContaining({
          level: 30,
          method: "GET",
          url: "/healthz/live?token=…&key=…",
          status: 200,
          ms: expect.any(Number),
        }),
      ]);
    expect(JSON.stringify(server.logs())).not.toMatch(/s3cret|abc\b/);
  });
});

describe.each(drivers)("the server with PUBLIC_URL set, on %s", (driver) => {
  let server: AppTestServer;
  beforeAll(async () => {
    server = await startAppServer(driver, { PUBLIC_URL: "https://shop.example.com", PUBLIC_URL_SET: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("sends a GET to any other host to PUBLIC_URL, permanently, path and query kept", async () => {
    for (const hostLine of [
      "Host: www.shop.example.com",
      `Host: 127.0.0.1:${server.port}`,
      "Host: evil.example",
    ]) {
      for (const method of ["GET", "HEAD"]) {
        const answer = await server.raw(
          `${method} /cart?x=1 HTTP/1.1\r\n${hostLine}\r\nConnection: close\r\n\r\n`,
        );
        expect(answer.status, hostLine).toBe(301);
        expect(answer.head, hostLine).toMatch(/\r\nLocation: https:\/\/shop\.example\.com\/cart\?x=1\r\n/i);
        expect(answer.body, hostLine).not.toContain("evil");
      }
    }
    // A forwarded host counts only from a proxy on this machine, and then it is sent to PUBLIC_URL as well.
    const forwarded = await server.raw(
      `GET / HTTP/1.1\r\nHost: shop.example.com\r\nX-Forwarded-Host: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(forwarded.status).toBe(301);
    expect(forwarded.head).toMatch(/\r\nLocation: https:\/\/shop\.example\.com\/\r\n/i);
  });

  it("refuses other methods at another host as misdirected, and leaves health checks alone", async () => {
    const post = await server.raw(
      postHead("/api/auth/request-password-reset", "evil.example", 2).replace(
        "\r\n\r\n",
        "\r\nOrigin: https://shop.example.com\r\nConnection: close\r\n\r\n",
      ) + "{}",
    );
    expect(post.status).toBe(421);
    expect(post.body).toContain("This store answers at https://shop.example.com");
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it("takes the store's requests at PUBLIC_URL's host", async () => {
    const answer = await server.raw(
      `GET /api/auth/get-session HTTP/1.1\r\nHost: shop.example.com\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(200);
  });
});
