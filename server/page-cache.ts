import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  RequestListener,
  ServerResponse,
} from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Express, RequestHandler, Response } from "express";
import fresh from "fresh";
import { LRUCache } from "lru-cache";
import Negotiator from "negotiator";
import type { Env } from "~/lib/env.server";
import { type Logger, requestLogger, safeUrl } from "~/lib/logger.server";
import { isPersonalPath, isPublicCacheControl, PUBLIC_PAGE_MAX_AGE_SECONDS } from "~/lib/page-caching";
import { rememberedLately } from "~/lib/remembered-lately";
import { routePath } from "~/lib/route-path";
import { currencyOfCookieHeader } from "~/lib/currency";
import { CURRENCY_COOKIE, type Currency } from "~/lib/money";
import { isSessionCookieHeader } from "~/modules/accounts/session.server";
import {
  collectDependencies,
  type ContentMark,
  type ContentVersion,
} from "~/modules/content/content-version.server";
import {
  KEPT_BROTLI_QUALITY,
  KEPT_GZIP_LEVEL,
  RENDERED_BROTLI_QUALITY,
  RENDERED_GZIP_LEVEL,
} from "./compression-levels";
import { headerBlock, type HeaderBlock, nodeEnd, nodeWriteHead, sendWithHeaderBlock } from "./header-block";
import { isValidHost } from "./same-origin";
import { createPageGzip, type PageGzip } from "./page-compression";
import { pageEtag, pageRun } from "./page-run";
import { hashInlineScripts } from "./script-hashes";

/**
 * The full-page cache of anonymous visitors' public pages (docs/decisions/0020-full-page-cache.md).
 *
 * `serve(app)` wraps the whole app as Node's request handler: a GET or HEAD without a session cookie whose page is
 * kept is answered there, before Express and React Router run. `capture()` sits in the app right before React
 * Router: a public HTML page it answers is made the same for every visitor (script hashes instead of the nonce), and
 * a successful one is kept, with its gzip and brotli forms, for the content version it was rendered at and until a
 * tag its render read (a product's availability) changes.
 */
export type PageCache = {
  serve(app: Express): RequestListener;
  capture(): RequestHandler;
  stats(): PageCacheStats;
};

export type PageCacheStats = { enabled: boolean; entries: number; bytes: number; maxBytes: number };

type PageCacheOptions = {
  enabled: boolean;
  /** The stylesheet every page carries inline, compressed once for all of them (server/page-compression.ts). */
  inlineStylesheet?: Buffer;
  maxBytes: number;
  contentVersion: ContentVersion;
  env: Pick<Env, "PUBLIC_URL" | "PUBLIC_URL_SET">;
  logger: Logger;
};

type Entry = {
  mark: ContentMark;
  /** What the render read that may change without a store-wide change (see `dependsOn`). */
  tags: string[];
  etag: string;
  /** The answer in each encoding: headers (with the length) and body. */
  identity: Representation;
  gzip: Representation;
  br: Representation;
  notModified: Representation;
  size: number;
};

/**
 * A body and its headers, as answered when it was just made (miss) and when it was kept (hit); a hit's headers also
 * written out once (server/header-block.ts).
 */
type Representation = {
  body: Buffer | undefined;
  headers: Record<Outcome, OutgoingHttpHeaders>;
  hitBlock: HeaderBlock;
};
type Outcome = "hit" | "miss";

/** What serve() learned about a request for capture() to use. */
type Ticket = {
  /** Where the page is kept, when it may be: undefined for a request that can only be answered. */
  key?: string;
  segment?: LRUCache<string, Entry>;
  /** The origin the key was made with, checked against Express's view of the request before storing. */
  origin?: string;
  mark: ContentMark;
  /** Filled while the page renders. */
  tags: Set<string>;
  /** Tells the requests waiting for this page what became of it: kept, or not (undefined). */
  settle?: (entry: Entry | undefined) => void;
};

/** Longest path and query kept: longer addresses are answered, never stored. */
const MAX_KEY_URL = 1024;
/** The part of the bytes for addresses with a query string, unusual spellings or another host name. */
const OTHER_SHARE = 1 / 8;
/** The headers the cache sets itself, or that belong to one connection: never stored. */
const NOT_STORED = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "vary",
  "set-cookie",
  "x-cache",
]);
/**
 * Paths whose actions change nothing a public page shows, so that their POSTs are not counted as writes: counting
 * one would make the next kept page wait for a catch-up round trip (PostgreSQL). The cart's quote prices a cart; all
 * it writes is its count of wrong discount codes, which no page shows.
 */
const READ_ONLY_PATHS = new Set(["/api/cart/quote"]);
/** Public pages differ by the encoding asked for; by the cookie too, for a shared cache that does not look at it. */
const VARY = "Accept-Encoding, Cookie";

const brotli = promisify(zlib.brotliCompress);

export function createPageCache({
  enabled,
  inlineStylesheet,
  maxBytes,
  contentVersion,
  env,
  logger,
}: PageCacheOptions): PageCache {
  const segment = (max: number) =>
    new LRUCache<string, Entry>({
      maxSize: Math.max(1, Math.floor(max)),
      sizeCalculation: (entry) => entry.size,
      ttl: PUBLIC_PAGE_MAX_AGE_SECONDS * 1000,
      allowStale: false,
      updateAgeOnGet: false,
    });
  // Pages at the store's own address without a query string get most of the bytes; whatever a client makes up
  // (query strings, other spellings of a path, other host names) churns only the rest.
  const main = segment(maxBytes * (1 - OTHER_SHARE));
  const other = segment(maxBytes * OTHER_SHARE);
  contentVersion.onChange(() => {
    main.clear();
    other.clear();
  });
  const stylesheet = pageRun(inlineStylesheet);
  const gzipPage = createPageGzip(stylesheet);
  const tickets = new WeakMap<IncomingMessage, Ticket>();
  /** The pages being rendered to be kept, by key. */
  const rendering = new Map<string, Promise<Entry | undefined>>();
  const publicOrigin = env.PUBLIC_URL_SET ? new URL(env.PUBLIC_URL).origin : undefined;
  const localHost = new URL(env.PUBLIC_URL).host;

  /** Where a request's page is kept, or undefined when it may not be (nor read from the cache). */
  const placeOf = (req: IncomingMessage, trust: TrustProxy) => {
    const url = req.url ?? "";
    if (!enabled || url.length > MAX_KEY_URL || !url.startsWith("/")) return undefined;
    if (isSessionCookieHeader(req.headers.cookie)) return undefined;
    // `?currency=` is answered by a redirect that keeps the choice (server/currency-choice.ts): never from here.
    if (url.includes(`${CURRENCY_COOKIE}=`)) return undefined;
    // A GET with a body is no browser's: Express decides what to do with it.
    if (req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0)
      return undefined;
    const query = url.indexOf("?");
    const path = query < 0 ? url : url.slice(0, query);
    const facts = factsOfPath(path);
    if (facts.personal) return undefined;
    const origin = originOf(req, trust);
    if (!origin) return undefined;
    // With PUBLIC_URL set, another host is redirected there by the app: nothing is kept for it.
    if (publicOrigin && origin !== publicOrigin) return undefined;
    const own = publicOrigin ? true : ownOrigin(origin, req.socket);
    const usual = query < 0 && facts.canonical;
    // The key is the address as asked for, not the page it stands for: a page shows its address (the admin's frame,
    // a canonical link), so one spelling's page is never served for another. A page shows prices in the visitor's
    // currency (the cookie's: ADR 0039), so each currency's page is kept apart.
    const currency = currencyOfCookieHeader(req.headers.cookie);
    return { key: keyOf(currency, origin, url), origin, segment: own && usual ? main : other };
  };
  const keyOf = pageKeys();
  const ownOrigin = ownOrigins(localHost);

  const answer = (entry: Entry, req: IncomingMessage, res: ServerResponse, outcome: Outcome) => {
    const representation = notModified(req.headers, entry.etag)
      ? entry.notModified
      : entry[preferredEncoding(req.headers["accept-encoding"])];
    const status = representation === entry.notModified ? 304 : 200;
    if (outcome === "hit" && sendWithHeaderBlock(res, status, representation.hitBlock, representation.body))
      return;
    nodeWriteHead.call(res, status, representation.headers[outcome]);
    nodeEnd.call(res, representation.body);
  };

  /** Whether a kept page may be served now. */
  const usable = (entry: Entry) => contentVersion.fresh(entry.mark, entry.tags);
  /** The kept page for a request, if there is one and it may be used now. */
  const hit = (place: { key: string; segment: LRUCache<string, Entry> }) => {
    const entry = place.segment.get(place.key);
    return entry && usable(entry) ? entry : undefined;
  };

  // Debug, not info as the app's own request lines: a hit costs less than writing its log line would.
  const hitLines = requestLogger(logger);
  const logHit = (req: IncomingMessage, res: ServerResponse, started: bigint) =>
    hitLines.debug(
      {
        method: req.method,
        url: safeUrl(req.url ?? ""),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
        cache: "hit",
      },
      "request",
    );

  return {
    serve(app) {
      const trust = app.get("trust proxy fn") as TrustProxy;
      return (req, res) => {
        const method = req.method;
        if (method !== "GET" && method !== "HEAD") {
          // What a write changed must count before this process serves a kept page again.
          if (method !== "OPTIONS" && !READ_ONLY_PATHS.has(routePath(req.url ?? "") ?? ""))
            res.once("close", () => contentVersion.wrote());
          app(req, res);
          return;
        }
        const started = hitLines.isLevelEnabled("debug") ? process.hrtime.bigint() : undefined;
        const place = placeOf(req, trust);
        const pass = () => {
          const ticket: Ticket = { mark: contentVersion.mark(), tags: new Set() };
          // A client that left while it waited behind another request has had its 'close' already: leading, it
          // would never tell those waiting behind it that it was done, and they would wait for good.
          if (place && contentVersion.live() && !res.closed) {
            Object.assign(ticket, place);
            // Requests for the same page meanwhile wait for this one rather than render it again.
            let settle!: (entry: Entry | undefined) => void;
            const rendered = new Promise<Entry | undefined>((resolve) => (settle = resolve));
            rendering.set(place.key, rendered);
            ticket.settle = (entry) => {
              if (rendering.get(place.key) === rendered) rendering.delete(place.key);
              settle(entry);
            };
            res.once("close", () => ticket.settle?.(undefined));
            // An answer that is no page to keep (a script, a file, a redirect) tells those waiting as its headers go
            // out, not after its last byte: a client that reads slowly would otherwise hold them all back.
            const writeHead = res.writeHead;
            res.writeHead = function writeHeadAndSettle(this: ServerResponse, ...args: unknown[]) {
              ticket.settle?.(undefined);
              return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
            } as ServerResponse["writeHead"];
          }
          tickets.set(req, ticket);
          if (ticket.key === undefined) app(req, res);
          else collectDependencies(ticket.tags, () => app(req, res));
        };
        const serveHit = (entry: Entry) => {
          answer(entry, req, res, "hit");
          if (started !== undefined) logHit(req, res, started);
        };
        const respond = () => {
          const found = place && hit(place);
          if (found) return serveHit(found);
          const leader = place && rendering.get(place.key);
          if (!leader) return pass();
          // One who left meanwhile is answered no more.
          const next = (entry: Entry | undefined) =>
            entry && usable(entry) ? serveHit(entry) : res.closed ? undefined : pass();
          leader.then(next, () => next(undefined));
        };
        if (!place || (!contentVersion.behind() && !contentVersion.unconfirmed())) return respond();
        // A write answered here since, or a change another process committed a while ago, must be counted before a
        // page is served from memory or rendered to be kept.
        contentVersion.catchUp().then(respond, pass);
      };
    },

    capture() {
      return (req, res, next) => {
        const ticket = tickets.get(req);
        if (!ticket) return next();
        const down = { write: res.write, end: res.end };
        const chunks: Buffer[] = [];
        let buffering: boolean | undefined;
        const decide = () => {
          if (buffering === undefined) {
            buffering =
              !res.headersSent &&
              (res.statusCode === 200 || res.statusCode === 404) &&
              String(res.getHeader("content-type") ?? "").startsWith("text/html") &&
              isPublicCacheControl(headerText(res.getHeader("cache-control")));
            if (!buffering) Object.assign(res, down);
          }
          return buffering;
        };
        res.write = function write(this: Response, chunk: unknown, ...rest: unknown[]) {
          if (!decide()) return (down.write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
          chunks.push(toBuffer(chunk, rest[0]));
          const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
          callback?.();
          return true;
        } as Response["write"];
        res.end = function end(this: Response, ...args: unknown[]) {
          if (!decide()) return (down.end as (...args: unknown[]) => Response).apply(this, args);
          Object.assign(res, down);
          const [chunk] = args;
          if (chunk !== undefined && typeof chunk !== "function") chunks.push(toBuffer(chunk, args[1]));
          const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          // A request's array may have grown old (promoted) before its page came: left holding the page, it would
          // keep it through every young collection until a full one, and such pages start a full collection every
          // few hundred renders (V8 counts their bytes as external memory). Emptied, the page dies young.
          chunks.length = 0;
          void finish(req, res, body, ticket).catch((error: unknown) => {
            logger.error({ err: error, url: safeUrl(req.originalUrl) }, "could not answer a public page");
            res.destroy();
          });
          return res;
        } as Response["end"];
        next();
      };
    },

    stats: () => ({
      enabled,
      entries: main.size + other.size,
      bytes: main.calculatedSize + other.calculatedSize,
      maxBytes,
    }),
  };

  /** Answers a public page the same for every visitor, and keeps it when it may be kept. */
  async function finish(
    req: IncomingMessage & { originalUrl: string; protocol: string; host: string | undefined },
    res: Response,
    body: Buffer,
    ticket: Ticket,
  ) {
    const nonce = String(res.locals.cspNonce ?? "");
    const shared = hashInlineScripts(
      body,
      nonce,
      headerText(res.getHeader("content-security-policy")) || undefined,
    );
    if (!shared) {
      ticket.settle?.(undefined);
      // Nothing may keep a page that carries this request's nonce.
      logger.warn({ url: safeUrl(req.originalUrl) }, "a public page kept its nonce: answered as private");
      res.setHeader("Cache-Control", "private, no-store");
      res.end(body);
      return;
    }
    if (shared.policy !== undefined) res.setHeader("Content-Security-Policy", shared.policy);
    if (ticket.key !== undefined) res.setHeader("X-Cache", "miss");
    const html = shared.html;
    const etag = pageEtag(html, stylesheet);
    res.setHeader("ETag", etag);
    res.setHeader("Vary", VARY);
    const maxAge = sharedMaxAge(headerText(res.getHeader("cache-control")));
    const storable =
      ticket.key !== undefined &&
      res.statusCode === 200 &&
      res.getHeader("set-cookie") === undefined &&
      maxAge > 0 &&
      // The address the app saw must be the one the key was made of.
      `${req.protocol}://${req.host}` === ticket.origin;
    if (!storable) {
      ticket.settle?.(undefined);
      if (res.statusCode === 200 && notModified(req.headers, etag)) {
        res.statusCode = 304;
        res.removeHeader("Content-Length");
        res.end();
      } else {
        sendRendered(req, res, html, gzipPage);
      }
      return;
    }
    const entry = await entryOf(res, html, { etag, gzipPage }, ticket.mark, [...ticket.tags]);
    const kept = usable(entry);
    if (kept) ticket.segment!.set(ticket.key!, entry, { ttl: maxAge * 1000 });
    ticket.settle?.(kept ? entry : undefined);
    answer(entry, req, res, "miss");
  }
}

type TrustProxy = (address: string | undefined, hop: number) => boolean;

/** The origin a request was sent to, as Express reads it (forwarded headers from a trusted proxy only). */
function originOf(req: IncomingMessage, trust: TrustProxy): string | undefined {
  let protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  let host = req.headers.host;
  const forwardedProto = req.headers["x-forwarded-proto"];
  const forwardedHost = req.headers["x-forwarded-host"];
  if ((forwardedProto || forwardedHost) && trust(req.socket.remoteAddress, 0)) {
    if (typeof forwardedProto === "string" && forwardedProto) protocol = forwardedProto.split(",")[0]!.trim();
    if (typeof forwardedHost === "string" && forwardedHost) host = forwardedHost.split(",")[0]!.trimEnd();
  }
  if (host === undefined) return undefined;
  return protocol === "http" ? httpOrigin(host) : protocol === "https" ? httpsOrigin(host) : undefined;
}

// An origin of the hosts asked lately is the same string at each request: the cache's lookups hash it once.
const originOfHost = (protocol: "http" | "https") =>
  rememberedLately((host) => (isValidHost(host) ? `${protocol}://${host}` : undefined), 256);
const httpOrigin = originOfHost("http");
const httpsOrigin = originOfHost("https");

/**
 * A page's key, `${currency} ${origin}${url}`, made once for the addresses asked lately and the same string at each
 * request after: a hit builds and hashes no new string for it. With `ownOrigins` below, about 6% of a hit's
 * instructions (callgrind: 87,400 to 81,700 a hit). Bounded: a few origins, a few hundred addresses each, all
 * forgotten at once when a bound is reached.
 */
function pageKeys(): (currency: Currency, origin: string, url: string) => string {
  const byOrigin = new Map<string, Map<Currency, Map<string, string>>>();
  return (currency, origin, url) => {
    let byCurrency = byOrigin.get(origin);
    if (!byCurrency) {
      if (byOrigin.size >= 8) byOrigin.clear();
      byOrigin.set(origin, (byCurrency = new Map()));
    }
    let byUrl = byCurrency.get(currency);
    if (!byUrl) byCurrency.set(currency, (byUrl = new Map()));
    let key = byUrl.get(url);
    if (key === undefined) {
      key = `${currency} ${origin}${url}`;
      if (byUrl.size >= 512) byUrl.clear();
      byUrl.set(url, key);
    }
    return key;
  };
}

/** A path as the store writes its own links: lower case, no empty segment, no trailing slash, nothing encoded. */
const CANONICAL_PATH = /^\/(?:[a-z0-9._~-]+(?:\/[a-z0-9._~-]+)*)?$/;

/** What a path alone tells the cache. */
const factsOfPath = rememberedLately((path) => ({
  // Judged on the path React Router will render, not as spelled: `/%75ser/login` is the sign-in page.
  personal: isPersonalPath(path),
  canonical: CANONICAL_PATH.test(path) && routePath(path) === path,
}));

/**
 * Whether the store can tell the origin is its own without PUBLIC_URL: the address the connection reached, or
 * localhost at the port it listens on. Any other name may be made up by the client.
 */
function isOwnAddress(
  origin: string,
  { localAddress, localPort }: { localAddress?: string; localPort?: number },
  localHost: string,
): boolean {
  if (!origin.startsWith("http://") || !localAddress) return false;
  const host = origin.slice("http://".length);
  if (host === localHost || host === `localhost:${localPort}`) return true;
  const address = localAddress.startsWith("::ffff:") ? localAddress.slice("::ffff:".length) : localAddress;
  return host === (address.includes(":") ? `[${address}]:${localPort}` : `${address}:${localPort}`);
}

/** `isOwnAddress`, answered from the last connection that asked for each origin when it reached the same address. */
function ownOrigins(localHost: string): (origin: string, socket: IncomingMessage["socket"]) => boolean {
  const last = new Map<string, { localAddress?: string; localPort?: number; own: boolean }>();
  return (origin, { localAddress, localPort }) => {
    const known = last.get(origin);
    if (known && known.localAddress === localAddress && known.localPort === localPort) return known.own;
    const own = isOwnAddress(origin, { localAddress, localPort }, localHost);
    if (last.size >= 64) last.clear();
    last.set(origin, { localAddress, localPort, own });
    return own;
  };
}

/** The shared caches' lifetime of a page (s-maxage), never longer than the safety net. */
function sharedMaxAge(cacheControl: string): number {
  const match = /(?:^|,)\s*s-maxage\s*=\s*(\d+)/i.exec(cacheControl);
  return match ? Math.min(Number(match[1]), PUBLIC_PAGE_MAX_AGE_SECONDS) : 0;
}

/** The answers of one page in every encoding, made once: what the cache keeps. */
async function entryOf(
  res: Response,
  html: Buffer,
  { etag, gzipPage }: { etag: string; gzipPage: PageGzip },
  mark: ContentMark,
  tags: string[],
): Promise<Entry> {
  const [gzipped, brotlied] = await Promise.all([
    gzipPage.later(html, KEPT_GZIP_LEVEL),
    brotli(html, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: KEPT_BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
      },
    }),
  ]);
  // Every value a string, as Node's own writing of headers is compiled for: one number among them (a length) has it
  // take its generic concatenation and validation for every header of every answer (about 5% of a hit's
  // instructions, counted with callgrind).
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined && !NOT_STORED.has(name))
      kept[name] = typeof value === "number" ? String(value) : value;
  }
  const common: OutgoingHttpHeaders = { ...kept, etag, vary: VARY };
  const representation = (body: Buffer | undefined, headers: OutgoingHttpHeaders): Representation => {
    const hit = { ...headers, "x-cache": "hit" };
    return { body, headers: { hit, miss: { ...headers, "x-cache": "miss" } }, hitBlock: headerBlock(hit) };
  };
  const encoded = (body: Buffer, encoding?: string) =>
    representation(body, {
      ...common,
      ...(encoding ? { "content-encoding": encoding } : {}),
      "content-length": String(body.length),
    });
  const notModified = { ...common };
  delete notModified["content-type"];
  let headerBytes = 0;
  for (const [name, value] of Object.entries(common)) headerBytes += name.length + String(value).length;
  return {
    mark,
    tags,
    etag,
    identity: encoded(html),
    gzip: encoded(gzipped, "gzip"),
    br: encoded(brotlied, "br"),
    notModified: representation(undefined, notModified),
    // The header objects of the four answers share their values; each answer's written block is a copy of them.
    size: html.length + gzipped.length + brotlied.length + 12 * headerBytes + 16 * tags.length,
  };
}

/**
 * A page rendered for one request, sent compressed the way the client takes it (renderedEncoding), with its length.
 * Compressed on the spot: with its stylesheet compressed once, a page costs a fraction of a millisecond, less than
 * handing it to libuv's thread pool and back (docs/decisions/0044-the-stylesheet-compressed-once.md). A HEAD is
 * rendered as the GET it asks about (server/app.ts) and gets the GET's headers.
 */
function sendRendered(req: IncomingMessage, res: Response, html: Buffer, gzipPage: PageGzip) {
  const encoding = renderedEncoding(req.headers["accept-encoding"]);
  const body =
    encoding === "gzip"
      ? gzipPage.now(html, RENDERED_GZIP_LEVEL)
      : encoding === "br"
        ? zlib.brotliCompressSync(html, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: RENDERED_BROTLI_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
            },
          })
        : html;
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", String(body.length));
  nodeWriteHead.call(res, res.statusCode, {});
  nodeEnd.call(res, body);
}

/** The encodings a kept page is sent in: when the client weighs several the same, the first of them. */
const ENCODINGS = ["br", "gzip", "identity"] as const;
type Encoding = (typeof ENCODINGS)[number];
/**
 * A page made for one request: gzip first, where its stylesheet was compressed once (server/page-compression.ts),
 * a third of brotli's CPU for a body about 4% larger; brotli for a client that takes nothing else.
 */
const RENDERED_ENCODINGS = ["gzip", "br", "identity"] as const;
// Negotiator 1 takes the server's preference as a second argument; @types/negotiator still describes 0.6.
type EncodingChoice = (
  this: Negotiator,
  available: readonly string[],
  options: { preferred: readonly string[] },
) => string | undefined;
const chooseEncoding = Negotiator.prototype.encoding as EncodingChoice;

/**
 * The encoding to send a page in for an Accept-Encoding (one refused with q=0 never is), in the order given when the
 * client weighs several the same. Remembered for the values asked lately (a bounded few, short ones): browsers send a
 * handful of values, and negotiating one (about 1.5 µs) would cost a hit more than everything else it decides.
 */
function encodingChooser(order: readonly Encoding[]): (acceptEncoding: string | undefined) => Encoding {
  const chosenEncodings = new Map<string, Encoding>();
  return (acceptEncoding) => {
    const key = acceptEncoding ?? "";
    let chosen = chosenEncodings.get(key);
    if (chosen === undefined) {
      const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } });
      // Even identity refused: the page as it is rather than a 406, as Express's compression does.
      chosen =
        (chooseEncoding.call(negotiator, order, { preferred: order }) as Encoding | undefined) ?? "identity";
      if (chosenEncodings.size >= 64) chosenEncodings.clear();
      if (key.length <= 256) chosenEncodings.set(key, chosen);
    }
    return chosen;
  };
}

/** The encoding a kept page is sent in. */
export const preferredEncoding = encodingChooser(ENCODINGS);
/** The encoding a page made for one request is sent in. */
export const renderedEncoding = encodingChooser(RENDERED_ENCODINGS);

/** Whether a conditional GET for a page with this ETag is answered 304 (If-None-Match, weak comparison). */
export function notModified(headers: IncomingHttpHeaders, etag: string): boolean {
  return fresh(headers, { etag });
}

const headerText = (value: number | string | string[] | undefined) =>
  Array.isArray(value) ? value.join(", ") : value === undefined ? "" : String(value);

const toBuffer = (chunk: unknown, encoding: unknown) =>
  Buffer.isBuffer(chunk)
    ? chunk
    : chunk instanceof Uint8Array
      ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
