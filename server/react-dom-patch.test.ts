import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";

// patches/react-dom+19.2.4.patch (ADR 0050): React's production build for Node writes a page to its destination as
// strings. Its build for other runtimes (react-dom/server.edge), left as published, writes bytes: the two must make
// the same page. Run in a process of its own, in production: React's builds for production and development do not
// mix, and the tests run in development.
const RENDER = `
import { createElement as h, Suspense, use } from "react";
import { renderToPipeableStream } from "react-dom/server.node";
import { renderToReadableStream } from "react-dom/server.edge";

function Later({ text }) {
  const value = use(text);
  return h("p", { title: "“" + value + "” & <more>" }, value);
}
const page = (text) =>
  h("html", { lang: "en" },
    h("head", null, h("title", null, "Prices in ₹ and $"), h("style", null, "body { color: red }")),
    h("body", null,
      h("h1", { className: "text-xl" }, "Café “Zürich” & more"),
      h("ul", null, Array.from({ length: 300 }, (_, i) =>
        h("li", { key: i, "data-index": i }, "Product ", i, " — ", "é".repeat(i % 5)))),
      h(Suspense, { fallback: h("p", null, "Loading…") }, h(Later, { text }))));
const later = () => new Promise((settle) => setTimeout(() => settle("Ready ✓"), 5));

function node(whole) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const destination = {
      write: (chunk) => (chunks.push(chunk), true),
      end: () => resolve({ strings: chunks.every((chunk) => typeof chunk === "string"), html: chunks.join("") }),
      destroy: reject,
      on: () => destination,
    };
    const { pipe } = renderToPipeableStream(page(later()), {
      [whole ? "onAllReady" : "onShellReady"]: () => pipe(destination),
      onShellError: reject,
    });
  });
}
async function edge(whole) {
  const stream = await renderToReadableStream(page(later()));
  if (whole) await stream.allReady;
  return new Response(stream).text();
}
const out = {};
for (const whole of [true, false]) out[whole ? "whole" : "streamed"] = { node: await node(whole), edge: await edge(whole) };
console.log(JSON.stringify(out));
`;

it("writes strings in production and makes the same page as React as published, whole or streamed", () => {
  const out = JSON.parse(
    execFileSync(process.execPath, ["--input-type=module", "-e", RENDER], {
      env: { ...process.env, NODE_ENV: "production" },
      encoding: "utf8",
    }),
  ) as Record<"whole" | "streamed", { node: { strings: boolean; html: string }; edge: string }>;
  for (const [name, { node, edge }] of Object.entries(out)) {
    expect(node.strings, name).toBe(true);
    expect(node.html, name).toBe(edge);
    expect(node.html, name).toContain("Café “Zürich” &amp; more");
  }
  expect(out.whole.node.html).toContain("Ready ✓</p>");
  expect(out.streamed.node.html).toContain("Loading…");
  expect(out.streamed.node.html).toContain("Ready ✓");
});
