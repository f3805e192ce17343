/**
 * How hard an answer made for one request is compressed (the app's compression, and the page cache's pages that are
 * not kept): nginx's default gzip level, and a brotli quality that costs less than it while making smaller bodies,
 * so that compressing costs a fraction of rendering. Kept pages are compressed once, harder (server/page-cache.ts).
 */
export const RENDERED_GZIP_LEVEL = 1;
export const RENDERED_BROTLI_QUALITY = 3;

/**
 * How hard a page the page cache keeps is compressed, once for all who get it from there. Kept pages are made again
 * at least once a minute (their lifetime) and after every change, and the visitor whose request made one waits for
 * it: brotli quality 6 costs about a seventh of quality 9 (4.5 against 32 ms of CPU for a 100 KB page, several times
 * the render itself) for bodies 1% larger (19.0 against 18.8 KB for the brand page). gzip's best level costs little
 * more than its default.
 */
export const KEPT_GZIP_LEVEL = 9;
export const KEPT_BROTLI_QUALITY = 6;
