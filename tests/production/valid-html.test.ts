import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, ready, startStore, stopStore, type StoreProcess } from "../support/store-process";

// The W3C HTML checker (vnu, run on the machine's Java) on the pages shoppers land on: valid HTML is what browsers,
// screen readers and the big sites' link previews read the same way.

const vnuJar = String(createRequire(import.meta.url)("vnu-jar"));

const KEY_PAGES = [
  "/",
  "/antivirus",
  "/antivirus/norton",
  "/antivirus/norton/360-deluxe",
  "/printer/hp-laserjet-pro-m404n",
  "/router/netgear/nighthawk-rax50",
  "/categories",
  "/search?q=norton",
  "/digital",
  "/digital/web-development",
  "/about",
  "/contact",
  "/cart",
  "/payment",
  "/user/login",
  "/order/lookup",
  "/no-such-page",
];

type VnuMessage = { url: string; lastLine?: number; message: string; extract?: string };

let store: StoreProcess;
beforeAll(async () => {
  store = startStore(await freePort(), {});
  await ready(store);
});
afterAll(async () => {
  expect(await stopStore(store)).toBe(0);
});

it("the key pages are valid HTML", async () => {
  const dir = `test-results/valid-html-${process.pid}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = await Promise.all(
    KEY_PAGES.map(async (path, n) => {
      const response = await fetch(`${store.url}${path}`);
      expect(response.headers.get("content-type")).toContain("text/html");
      const file = `${dir}/${n}.html`;
      writeFileSync(file, await response.text());
      return { path, file };
    }),
  );
  // vnu writes its JSON report to standard error. Its CSS checker knows neither @property (Tailwind's) nor
  // margin-trim: those two are left out, every other message fails the test.
  const { stderr } = await promisify(execFile)(
    "java",
    [
      "-jar",
      vnuJar,
      "--errors-only",
      "--format",
      "json",
      "--exit-zero-always",
      "--filterpattern",
      "CSS: (Unrecognized at-rule “@property”|“margin-trim”: Property “margin-trim” doesn't exist).*",
      ...files.map((page) => page.file),
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] };
  const errors = messages.map((message) => {
    const page = files.find((entry) => message.url.endsWith(`/${entry.file}`))?.path ?? message.url;
    return `${page}:${message.lastLine ?? "?"} ${message.message} [${(message.extract ?? "").trim().slice(0, 120)}]`;
  });
  expect(errors).toEqual([]);
}, 180_000);

/** The content of each `<meta property|name="key" content="...">` of a page. */
const metaTags = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"\/?>/g)].map((tag) => [
      tag[1]!,
      tag[2]!,
    ]),
  );

it("product and brand pages share a raster picture with words for it, the store's name and a card", async () => {
  for (const [path, alt, width, height, card] of [
    ["/antivirus/norton/360-deluxe", "Norton 360 Deluxe", "600", "600", "summary"],
    ["/antivirus/norton", "Norton logo", "320", "120", "summary_large_image"],
  ] as const) {
    const meta = metaTags(await (await fetch(`${store.url}${path}`)).text());
    expect(meta["og:site_name"]).toBe("KeyHaven Tech Store");
    expect(meta["og:image:alt"]).toBe(alt);
    expect([meta["og:image:width"], meta["og:image:height"]]).toEqual([width, height]);
    expect(meta["twitter:card"]).toBe(card);
    const image = await fetch(meta["og:image"]!);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect([...bytes.subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join("")).toBe("PNG");
  }
  // Only art a product or a brand shows is drawn: the server draws no picture for a made-up name.
  expect((await fetch(`${store.url}/placeholder/product/anything-at-all.png`)).status).toBe(404);
  expect((await fetch(`${store.url}/placeholder/banner/anything.png`)).status).toBe(404);
});
