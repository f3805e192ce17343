/** First-load JavaScript: the scripts a page's HTML makes the browser load before it runs, gzip-compressed. */
import { gzipSync } from "node:zlib";

/**
 * The same-origin scripts a page loads at once: module preloads (in the HTML, or started after the first paint by
 * the page's starter script), script elements and the inline module's imports.
 */
export function scriptsOf(html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g))
    found.add(match[1]!);
  for (const match of html.matchAll(/const preloads=(\[[^\]]*\])/g))
    for (const src of JSON.parse(match[1]!) as string[]) found.add(src);
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) found.add(match[1]!);
  for (const match of html.matchAll(/import[^"']*["'](\/[^"']+\.js)["']/g)) found.add(match[1]!);
  return [...found].filter((src) => src.startsWith("/"));
}

/** Bytes of `body` in gzip at level 9: what the store sends, the build having compressed its scripts so. */
export const gzipSize = (body: Uint8Array) => gzipSync(body, { level: 9 }).length;

/** A response's body, asked again when the connection fails (a keep-alive connection the server had closed). */
export async function fetchBytes(url: string): Promise<Uint8Array> {
  for (let attempt = 1; ; attempt++) {
    try {
      return new Uint8Array(await (await fetch(url)).arrayBuffer());
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** For each page: how many scripts it loads first and their gzip size in KB (1,024 bytes). */
export async function firstLoadScripts(base: string, pages: Array<{ name: string; path: string }>) {
  const out: Array<{ name: string; files: number; kb: number }> = [];
  for (const page of pages) {
    const html = new TextDecoder().decode(await fetchBytes(`${base}${page.path}`));
    const scripts = scriptsOf(html);
    let bytes = 0;
    for (const src of scripts)
      bytes += gzipSize(new Uint8Array(await (await fetch(`${base}${src}`)).arrayBuffer()));
    out.push({ name: page.name, files: scripts.length, kb: bytes / 1024 });
  }
  return out;
}
