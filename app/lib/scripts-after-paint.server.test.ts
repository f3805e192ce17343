import { describe, expect, it } from "vitest";
import { scriptsAfterPaint } from "./scripts-after-paint.server";

const page = (nonce = "") => {
  const attribute = nonce ? ` nonce="${nonce}"` : "";
  return (
    `<!DOCTYPE html><html><head><style>.a{}</style>` +
    `<link rel="modulepreload" href="/assets/entry.js"/><link rel="modulepreload" href="/assets/vendor.js"/></head>` +
    `<body><main>Hello</main><script${attribute}>window.context = {};</script>` +
    `<script type="module" async=""${attribute}>import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>` +
    `<script${attribute}>window.context.stream = 1;</script></body></html>`
  );
};
const run = (html: string, nonce = "") => scriptsAfterPaint(Buffer.from(html), nonce).toString();

describe("scriptsAfterPaint", () => {
  it("takes the module preloads out of the page and leaves the inline module inert, its text unchanged", () => {
    const out = run(page());
    expect(out).not.toContain('modulepreload" href');
    expect(out).toContain(
      `<script type="text/x-after-paint" data-after-paint="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.js");</script>`,
    );
    expect(out).not.toContain('<script type="module"');
    // Everything else is where it was.
    expect(out).toContain("<head><style>.a{}</style></head>");
    expect(out).toContain("<body><main>Hello</main><script>window.context = {};</script>");
    expect(out).toContain("<script>window.context.stream = 1;</script>");
  });

  it("starts them from a script at the end of the body, which lists the preloads", () => {
    const out = run(page());
    const starter = /<script>(\(\(\)=>\{const preloads=(\[[^\]]*\]).*?)<\/script><\/body><\/html>$/.exec(out);
    expect(starter).not.toBeNull();
    expect(JSON.parse(starter![2]!)).toEqual(["/assets/entry.js", "/assets/vendor.js"]);
  });

  it("gives the starter the page's nonce, which the waiting module keeps", () => {
    const out = run(page("abc123"), "abc123");
    expect(out).toContain('<script type="text/x-after-paint" data-after-paint="" nonce="abc123">');
    expect(out).toMatch(/<script nonce="abc123">\(\(\)=>\{const preloads=/);
  });

  it("hands back a page without React Router's inline module as it is", () => {
    const html = '<html><head><link rel="modulepreload" href="/a.js"/></head><body>x</body></html>';
    const bytes = Buffer.from(html);
    expect(scriptsAfterPaint(bytes, "")).toBe(bytes);
  });

  it("reads a preload's address as the browser would, and writes it so that it cannot end the script", () => {
    const html = page().replace("/assets/vendor.js", "/assets/a.js?v=1&amp;x=&lt;/script&gt;");
    expect(run(html)).toContain('"/assets/a.js?v=1&x=\\u003c/script>"');
  });
});

describe("scriptsAfterPaint, attributes in another order", () => {
  it("finds the module and the preloads whatever their other attributes", () => {
    const html =
      `<html><head><link rel="modulepreload" href="/assets/a.js" nonce="n1"/></head><body>` +
      `<script nonce="n2" type="module" async="">import "/assets/a.js";</script></body></html>`;
    const out = scriptsAfterPaint(Buffer.from(html), "n2").toString();
    expect(out).toContain("<head></head>");
    expect(out).toContain(
      '<script nonce="n2" type="text/x-after-paint" data-after-paint="">import "/assets/a.js";</script>',
    );
    expect(out).toContain('<script nonce="n2">(()=>{const preloads=["/assets/a.js"];');
  });
});
