import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";

/**
 * A kept page's headers written out once, when the page is kept, and sent as they are at each hit
 * (docs/decisions/0046-kept-pages-send-their-headers-written.md). Node writes out and checks every header of every
 * answer again (about 16 for a page, its Content-Security-Policy a kilobyte): some 15% of a kept page's CPU, more
 * than everything else the cache does for a hit.
 *
 * Node still writes what belongs to the moment and the connection: the status line, Date, Connection and
 * Keep-Alive, and the headers it decides those by (for a page, only the length). The page's own lines then go in
 * after the status line, into the header block Node keeps until the first bytes go out (`_header`, what it would
 * have written them into).
 */
export type HeaderBlock = {
  /** Each header as Node writes it, `name: value\r\n`, checked as Node checks them (the length apart). */
  lines: string;
  /** What Node is given to write itself, the headers it reads to decide the rest: the length, for a page. */
  forNode: OutgoingHttpHeaders;
};

/** The headers whose presence changes what Node writes (chunked or not, its own Date, keep-alive or close). */
const READ_BY_NODE = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "trailer",
  "expect",
]);

type HeldHead = { _header?: unknown };

// Node's own methods, past whatever the app wrapped them with (compression): a kept page is sent as it was made.
export const nodeWriteHead = http.ServerResponse.prototype.writeHead as (
  this: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
) => ServerResponse;
export const nodeEnd = http.ServerResponse.prototype.end as (
  this: ServerResponse,
  body?: Buffer,
) => ServerResponse;

/** The page's headers as one block; throws as Node would (ERR_INVALID_CHAR, ...) on a name or value it refuses. */
export function headerBlock(headers: OutgoingHttpHeaders): HeaderBlock {
  let lines = "";
  const forNode: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (READ_BY_NODE.has(name.toLowerCase())) {
      forNode[name] = typeof value === "number" ? String(value) : value;
      continue;
    }
    http.validateHeaderName(name);
    // Several values are several lines, as Node writes them (no cookie is kept: ADR 0020).
    for (const one of Array.isArray(value) ? value : [String(value)]) {
      http.validateHeaderValue(name, one);
      lines += `${name}: ${one}\r\n`;
    }
  }
  return { lines, forNode };
}

/**
 * Sends `body` with the block's headers, or returns false, having sent nothing, when the response is not as a kept
 * page's hit leaves it (a header already set, as `Connection: close` while the server stops) or this Node does not
 * keep its header block as a string (then every answer takes Node's own way: `headerBlocksWork`).
 */
export function sendWithHeaderBlock(
  res: ServerResponse,
  status: number,
  block: HeaderBlock,
  body: Buffer | undefined,
): boolean {
  if (!headerBlocksWork || res.headersSent || res.getHeaderNames().length > 0) return false;
  nodeWriteHead.call(res, status, block.forNode);
  const held = res as unknown as HeldHead;
  const head = held._header as string;
  const afterStatusLine = head.indexOf("\r\n") + 2;
  held._header = head.slice(0, afterStatusLine) + block.lines + head.slice(afterStatusLine);
  nodeEnd.call(res, body);
  return true;
}

/**
 * Whether this Node keeps a response's header block as the text to send, status line first, until the body goes
 * out: checked once on a response of no connection, so that a Node that does it otherwise is never given a block.
 */
function nodeKeepsHeaderBlock(): boolean {
  const req = new http.IncomingMessage(null as never) as IncomingMessage;
  Object.assign(req, { method: "GET", httpVersionMajor: 1, httpVersionMinor: 1 });
  const res = new http.ServerResponse(req);
  nodeWriteHead.call(res, 200, { "content-length": "1" });
  const head = (res as unknown as HeldHead)._header;
  return (
    typeof head === "string" &&
    head.startsWith("HTTP/1.1 200 OK\r\ncontent-length: 1\r\n") &&
    head.endsWith("\r\n\r\n")
  );
}

export const headerBlocksWork = nodeKeepsHeaderBlock();
