import http from "node:http";
import type { RequestListener } from "node:http";
import type { Duplex } from "node:stream";
import type { Env } from "~/lib/env.server";

/**
 * The HTTP server around the app, with limits on slow clients: the headers must arrive within
 * HEADERS_TIMEOUT_SECONDS and the whole request (headers and body) within REQUEST_TIMEOUT_SECONDS, or the client
 * gets 408 and the connection is closed (Node's own default would wait 300 s for a body sent a byte at a time).
 */
export function createHttpServer(
  app: RequestListener,
  env: Pick<Env, "HEADERS_TIMEOUT_SECONDS" | "REQUEST_TIMEOUT_SECONDS">,
): http.Server {
  const server = http.createServer(
    {
      headersTimeout: env.HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: env.REQUEST_TIMEOUT_SECONDS * 1000,
      // How often those limits are checked: Node's 30 s would let a slow client stay that much longer.
      connectionsCheckingInterval: 1000,
    },
    app,
  );
  // CONNECT (a proxy tunnel) never reaches the app: Node would drop the connection without a word.
  server.on("connect", (_req, socket: Duplex) => {
    const body = "This store is not a proxy: it does not take CONNECT requests.";
    socket.end(
      "HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD, POST, OPTIONS\r\nContent-Type: text/plain\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
