const PRELOAD_OPEN = Buffer.from('<link rel="modulepreload"');
const SCRIPT_OPEN = Buffer.from("<script");
const MODULE_TYPE = ' type="module"';
const WAITING_TYPE = ' type="text/x-after-paint" data-after-paint=""';
const ASYNC = /\sasync(?:="")?(?=[\s>])/;
const BODY_CLOSE = Buffer.from("</body>");
const TAG_END = ">".charCodeAt(0);

/**
 * What starts the page's scripts once the browser has painted: the module preloads, then React Router's inline
 * module (the same text, so the same hash in the policy; the same nonce where the page has one). It waits for the
 * document to be read and for its first contentful paint. A tab in the background paints nothing, so it does not
 * wait there, and it waits 3 s at most anywhere. A browser that cannot tell it about paints gets its scripts at once.
 */
const starter = (preloads: string[]) =>
  `(()=>{const preloads=${JSON.stringify(preloads).replaceAll("<", "\\u003c")};` +
  `const start=()=>{const waiting=document.querySelector("script[data-after-paint]");if(!waiting)return;` +
  `for(const href of preloads){const link=document.createElement("link");link.rel="modulepreload";link.href=href;document.head.append(link)}` +
  `waiting.replaceWith(Object.assign(document.createElement("script"),{type:"module",nonce:waiting.nonce,textContent:waiting.textContent}))};` +
  `const painted=new Promise(resolve=>{` +
  `if(document.visibilityState==="hidden"||!PerformanceObserver.supportedEntryTypes?.includes("paint"))return resolve();` +
  `new PerformanceObserver((list,observer)=>{if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();resolve()}}).observe({type:"paint",buffered:true});` +
  `setTimeout(resolve,3000)});` +
  `const read=new Promise(resolve=>document.readyState==="loading"?document.addEventListener("DOMContentLoaded",resolve):resolve());` +
  `Promise.all([painted,read]).then(start,start)})()`;

/**
 * A page whose scripts are fetched after its first paint rather than beside it: the page paints from its HTML alone
 * (its styles are inline), so on a slow connection the document and its images have the line to themselves, and
 * React takes over a frame later. React Router's module preloads leave the HTML and its inline module waits, inert,
 * for a small script at the end of the body to start both (docs/decisions/0025-first-load-budget.md).
 *
 * A page without React Router's inline module is handed back as it is.
 */
export function scriptsAfterPaint(html: Buffer, nonce: string): Buffer {
  const module = inlineModule(html);
  const bodyClose = html.lastIndexOf(BODY_CLOSE);
  if (!module || bodyClose < module.end) return html;
  const parts: Buffer[] = [];
  const preloads: string[] = [];
  let from = 0;
  for (
    let at = html.indexOf(PRELOAD_OPEN);
    at >= 0 && at < module.start;
    at = html.indexOf(PRELOAD_OPEN, from)
  ) {
    const end = html.indexOf(TAG_END, at) + 1;
    const href = attributeText(/\shref="([^"]+)"/.exec(html.toString("utf8", at, end))?.[1]);
    if (!end || !href) break;
    preloads.push(href);
    parts.push(html.subarray(from, at));
    from = end;
  }
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  parts.push(
    html.subarray(from, module.start),
    Buffer.from(
      // A data block may not be async (HTML forbids it); the module the starter makes from it is async anyway.
      html.toString("latin1", module.start, module.end).replace(MODULE_TYPE, WAITING_TYPE).replace(ASYNC, ""),
      "latin1",
    ),
    html.subarray(module.end, bodyClose),
    Buffer.from(`<script${nonceAttribute}>${starter(preloads)}</script>`),
    html.subarray(bodyClose),
  );
  return Buffer.concat(parts);
}

/** An attribute's value as the browser reads it (React escapes these five). */
const attributeText = (value: string | undefined) =>
  value
    ?.replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** Where the opening tag of the page's first inline module script starts and ends. */
function inlineModule(html: Buffer): { start: number; end: number } | undefined {
  for (let at = html.indexOf(SCRIPT_OPEN); at >= 0; at = html.indexOf(SCRIPT_OPEN, at + 1)) {
    const end = html.indexOf(TAG_END, at) + 1;
    if (!end) return undefined;
    const tag = html.toString("latin1", at, end);
    if (tag.includes(MODULE_TYPE) && !/\ssrc=/.test(tag)) return { start: at, end };
  }
  return undefined;
}
