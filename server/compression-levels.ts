/**
 * How hard an answer made for one request is compressed (the app's compression, and the page cache's pages that are
 * not kept): nginx's default gzip level, and a brotli quality that costs less than it while making smaller bodies,
 * so that compressing costs a fraction of rendering. Kept pages are compressed once, at the most
 * (server/page-cache.ts).
 */
export const RENDERED_GZIP_LEVEL = 1;
export const RENDERED_BROTLI_QUALITY = 3;
