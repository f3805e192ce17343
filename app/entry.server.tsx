import type { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { safeUrl } from "~/lib/logger.server";
import { StylesProvider } from "~/lib/inline-styles";
import { NonceProvider } from "~/lib/nonce";
import { STYLESHEET } from "~/lib/styles.server";
import { isPublicCacheControl } from "~/lib/page-caching";
import { scriptsAfterPaint } from "~/lib/scripts-after-paint.server";

export const streamTimeout = 5_000;

/** The stylesheet every page carries, for the server to compress once for all of them (server/page-compression.ts). */
export const inlineStylesheet = STYLESHEET;

/**
 * A loader or action that failed: logged through the store's logger, whose error serializer drops the values of a
 * failed query (a receipt with a licence key, a secret link), with the path of the request and no query string.
 * A request the browser gave up on is not an error of ours. A database that cannot be reached makes the store
 * answer 503 until it is back.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const load = context as unknown as Partial<AppLoadContext> | undefined;
  load?.availability?.report(error);
  const fields = {
    err: error,
    method: request.method,
    url: safeUrl(new URL(request.url).pathname + new URL(request.url).search),
  };
  if (load?.logger) load.logger.error(fields, "a page or API failed");
  else console.error("a page or API failed", fields.method, fields.url);
};

/**
 * Pages are rendered whole and sent as one body: no page streams (none awaits deferred data), and one write costs
 * far less than a stream of small chunks through web streams. Crawlers and people get the same bytes. A HEAD
 * comes as its GET (server/app.ts), so that it carries the GET's headers; Node sends no body for it.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A page or its page-not-found may be kept by a shared cache; an error or a refusal is this moment's answer only.
  if (
    responseStatusCode !== 200 &&
    responseStatusCode !== 404 &&
    isPublicCacheControl(responseHeaders.get("Cache-Control"))
  ) {
    responseHeaders.set("Cache-Control", "no-store");
  }
  const nonce = loadContext.cspNonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const body = pageSink((page) => {
      clearTimeout(timeoutId);
      // Bytes throughout: the page is not decoded and encoded again on its way out.
      // In development Vite's own scripts (hot reload) load as Vite has them.
      const html = (
        loadContext.env.NODE_ENV === "production" ? scriptsAfterPaint(page, nonce) : page
      ) as Buffer<ArrayBuffer>;
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      responseHeaders.set("Content-Length", String(html.length));
      resolve(new Response(oneChunk(html), { headers: responseHeaders, status: responseStatusCode }));
    }, fail);
    function fail(error: unknown) {
      clearTimeout(timeoutId);
      reject(error);
    }
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesProvider value={STYLESHEET_STAND_IN}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </StylesProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          pipe(body);
        },
        onShellError: fail,
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error }, "error while rendering a page");
        },
      },
    );
  });
}

/** The stylesheet's bytes, encoded once: the page's sink writes them where React wrote the stand-in below. */
const stylesheetBytes = Buffer.from(STYLESHEET);
/**
 * What React writes into the page's <style> element in the stylesheet's place, and the sink swaps for its bytes.
 * React measures every string it writes (Buffer.byteLength, for its streaming of Suspense boundaries): for the
 * 52 KB stylesheet about 40 µs a render, 1 to 2% of an uncached brand page. React hands its destination every string
 * whole and as it is in production (ADR 0050), and one of more than 682 characters in development, so the sink sees
 * this very string as one chunk.
 */
const STYLESHEET_STAND_IN = `/* the store's stylesheet */${" ".repeat(700)}`;

/**
 * Where React writes a page: its chunks kept as they come and joined once it ends. Not a Writable stream: React
 * writes a page in thousands of chunks, and a stream's bookkeeping for each (its state, a callback on the next tick)
 * would cost more than the page. React asks of its destination only these methods (`pipe` in react-dom/server.node).
 * In production React writes strings (patches/react-dom+19.2.4.patch: ADR 0050), joined here and encoded once, the
 * stylesheet's stand-in swapped for its bytes; in development, bytes, kept as they come.
 */
function pageSink(done: (page: Buffer) => void, failed: (error: unknown) => void): Writable {
  const parts: Uint8Array[] = [];
  let text = "";
  const endText = () => {
    if (text) parts.push(Buffer.from(text));
    text = "";
  };
  const sink = {
    write(chunk: Uint8Array | string) {
      if (typeof chunk !== "string") {
        endText();
        parts.push(chunk);
      } else if (chunk === STYLESHEET_STAND_IN) {
        endText();
        parts.push(stylesheetBytes);
      } else {
        text += chunk;
      }
      return true;
    },
    end() {
      endText();
      const page = Buffer.concat(parts);
      // Emptied at once, as the page cache empties its own (capture in server/page-cache.ts): an array that has
      // grown old would keep these pieces through every young collection until a full one.
      parts.length = 0;
      done(page);
    },
    destroy(error: unknown) {
      failed(error);
    },
    on() {
      return sink;
    },
  };
  return sink as unknown as Writable;
}

/**
 * A page as a Response's body: a stream of one chunk. Given the bytes themselves, undici copies them first (about
 * 100 µs for a 100 KB page, against 10 for the stream).
 */
function oneChunk(page: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(page);
      controller.close();
    },
  });
}
