import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { safeUrl } from "~/lib/logger.server";
import { NonceProvider } from "~/lib/nonce";
import { isPublicCacheControl } from "~/lib/page-caching";

export const streamTimeout = 5_000;

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
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole page at once, with every meta tag in place.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error }, "error while streaming a page");
        },
      },
    );
  });
}
