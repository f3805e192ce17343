import http from "node:http";
import type { IncomingMessage, RequestListener } from "node:http";
import type { Duplex } from "node:stream";
import type { Env } from "~/lib/env.server";

/**
 * The HTTP server around the app, with limits on slow clients: the headers must arrive within
 * HEADERS_TIMEOUT_SECONDS and the whole request (headers and body) within REQUEST_TIMEOUT_SECONDS, or the client
 * gets 408 and the connection is closed (Node's own default would wait 300 s for a body sent a byte at a time). A
 * connection waits KEEP_ALIVE_TIMEOUT_SECONDS for the next request: Node's 5 s is shorter than the idle time of the
 * connections a proxy in front keeps to the store, and a request the proxy sends as the store closes one is lost.
 */
export function createHttpServer(
  app: RequestListener,
  env: Pick<Env, "HEADERS_TIMEOUT_SECONDS" | "REQUEST_TIMEOUT_SECONDS" | "KEEP_ALIVE_TIMEOUT_SECONDS">,
): http.Server {
  const inFlight = new Set<http.ServerResponse>();
  skipOnlyTheBodiesOfGets();
  const server = http.createServer(
    {
      headersTimeout: env.HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: env.REQUEST_TIMEOUT_SECONDS * 1000,
      // Clients are told this (Keep-Alive: timeout=N); Node closes the connection a second later.
      keepAliveTimeout: env.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
      // How often those limits are checked: Node's 30 s would let a slow client stay that much longer.
      connectionsCheckingInterval: 1000,
      // A request without a body (no Content-Length nor Transfer-Encoding) comes with its body stream already
      // ended, and none of the stream's life cycle runs for it: about 8% more kept pages a second (ADR 0048).
      optimizeEmptyRequests: true,
    },
    (req, res) => {
      if (stopping.has(server)) res.setHeader("Connection", "close");
      const refused = toOriginForm(req);
      if (refused) {
        res.writeHead(400, {
          "Content-Type": "text/plain; charset=utf-8",
          "Content-Length": String(Buffer.byteLength(refused)),
          "X-Content-Type-Options": "nosniff",
        });
        res.end(refused);
        return;
      }
      app(req, res);
      // What a shutdown waits for: an answer sent at once (a kept page) is done with already.
      if (!res.writableEnded) {
        inFlight.add(res);
        res.on("close", () => inFlight.delete(res));
      }
    },
  );
  responsesInFlight.set(server, inFlight);
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

/**
 * Node skips the body of a request sent without Content-Length or Transfer-Encoding (`optimizeEmptyRequests`) by
 * marking it ended, and such a body never emits 'end': a POST sent that way (an empty body, RFC 9112 6.3) would
 * leave whatever reads it, a form's action, waiting for good. Only a GET's or a HEAD's body is skipped; any other
 * ends as it always did. Set on Node's own prototype, not a subclass given as the server's `IncomingMessage`: a
 * subclass's constructor cost a kept page what the option saves. Node calls this method only for that option.
 */
function skipOnlyTheBodiesOfGets() {
  if (onlyGetBodiesSkipped) return;
  const prototype = http.IncomingMessage.prototype as unknown as { _dumpAndCloseReadable?: () => void };
  const skip = prototype._dumpAndCloseReadable;
  if (typeof skip !== "function") return;
  prototype._dumpAndCloseReadable = function skipUnlessItMayHaveABody(this: IncomingMessage) {
    if (this.method !== "GET" && this.method !== "HEAD") return;
    skip.call(this);
    // Complete as well (Node says so only once the parser is done): Express's final handler and whatever else asks
    // on-finished whether a request was read to its end would otherwise wait for an 'end' that never comes.
    this.complete = true;
  };
  onlyGetBodiesSkipped = true;
}
let onlyGetBodiesSkipped = false;

/**
 * Makes the request's target a path, as everything behind the server expects, or says why it cannot be. HTTP lets a
 * client send the whole address (`GET http://host/path`, as to a proxy): the server must take it, and its host
 * stands for the Host header (RFC 9112, 3.2.2), so the usual checks of the host apply to it. `OPTIONS *` asks about
 * the server itself and stays as it is.
 */
export function toOriginForm(req: IncomingMessage): string | undefined {
  const target = req.url ?? "";
  if (target.startsWith("/") || (target === "*" && req.method === "OPTIONS")) return undefined;
  let address: URL | undefined;
  try {
    address = new URL(target);
  } catch {
    address = undefined;
  }
  if (!address || (address.protocol !== "http:" && address.protocol !== "https:") || !address.host)
    return "The request's target must be a path (/like/this) or a full http:// or https:// address.";
  req.headers.host = address.host;
  req.url = `${address.pathname}${address.search}`;
  return undefined;
}

const responsesInFlight = new WeakMap<http.Server, Set<http.ServerResponse>>();
const stopping = new WeakSet<http.Server>();

/**
 * Stops the server within `timeoutMs`: no new connections; responses in flight are answered with
 * `Connection: close` (so a keep-alive client does not send another request); idle keep-alive connections end at
 * once; at the deadline whatever is still open is closed. Resolves to how many responses still being made had to be
 * cut (an answer the app sent whole at once, a kept page, is not counted, even if its bytes were still going out).
 */
export async function closeWithin(server: http.Server, timeoutMs: number): Promise<{ cut: number }> {
  stopping.add(server);
  const inFlight = responsesInFlight.get(server) ?? new Set();
  for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A response that finishes after this leaves its connection idle: end it as soon as it is.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), timeoutMs);
  });
  const outcome = await Promise.race([closed.then(() => "closed" as const), deadline]);
  clearInterval(sweep);
  clearTimeout(timer);
  if (outcome === "closed") return { cut: 0 };
  const cut = inFlight.size;
  server.closeAllConnections();
  await closed;
  return { cut };
}
