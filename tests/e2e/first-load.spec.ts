import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { gzipSize, scriptsOf } from "../../scripts/bench-web/first-load";
import { hydrated } from "./hydrated";
import { test } from "./fixtures";
import { screenshot } from "./screenshots";

/** The pages the budget holds for (docs/decisions/0025-first-load-budget.md), as the web benchmark loads them. */
const PAGES = [
  { name: "home", path: "/" },
  { name: "brand page", path: "/antivirus/mcafee" },
  { name: "product page", path: "/antivirus/mcafee/total-protection" },
];
/** First-load JavaScript, gzip, in KB (1,024 bytes). */
const BUDGET_KB = 122;

test("home, a brand page and a product page load at most 122 KB of JavaScript (gzip) first", async ({
  request,
}) => {
  for (const page of PAGES) {
    const html = await (await request.get(page.path)).text();
    const scripts = scriptsOf(html);
    // The page hydrates: its scripts are there, and each is a file of this build.
    expect(scripts.length, page.name).toBeGreaterThan(0);
    let bytes = 0;
    const sizes: string[] = [];
    for (const src of scripts) {
      const file = readFileSync(path.join("build/client", src));
      expect((await request.get(src)).status(), src).toBe(200);
      const size = gzipSize(file);
      bytes += size;
      sizes.push(`${src} ${(size / 1024).toFixed(1)} KB`);
    }
    expect(bytes / 1024, `${page.name}:\n${sizes.join("\n")}`).toBeLessThanOrEqual(BUDGET_KB);
    // The page paints from its HTML: nothing in it asks for a script before the paint.
    expect(html, page.name).not.toMatch(/<link[^>]+rel="modulepreload"/);
    expect(html, page.name).not.toMatch(/<script[^>]+type="module"/);
  }
});

test("the pages paint before they ask for a script, and React takes over after, under the policy", async ({
  browser,
  request,
}) => {
  const context = await browser.newContext();
  try {
    for (const { name, path: address } of PAGES) {
      const firstLoad = scriptsOf(await (await request.get(address)).text());
      // A fresh tab for each, as a visitor arriving: a browser holds the old page's paint on a move within a site.
      const page = await context.newPage();
      const errors = await watchErrors(page);
      await page.goto(address);
      await hydrated(page);
      const timing = await page.evaluate(() => ({
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
        scripts: performance
          .getEntriesByType("resource")
          .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
          .map((entry) => ({ url: new URL(entry.name).pathname, start: entry.startTime })),
      }));
      expect(timing.paint, name).toBeGreaterThan(0);
      // Every script the page loads first was asked for, and none before the paint.
      expect(firstLoad.length, name).toBeGreaterThan(0);
      for (const src of firstLoad)
        expect(
          timing.scripts.map((script) => script.url),
          name,
        ).toContain(src);
      for (const script of timing.scripts)
        expect(script.start, `${name}: ${script.url}`).toBeGreaterThan(timing.paint);
      expect(errors, name).toEqual([]);
      await page.close();
    }
  } finally {
    await context.close();
  }
});

/** Everything logged as an error (a hydration mismatch, a refused inline style or script) and every page error. */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return page
    .addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    })
    .then(() => errors);
}

/** What the stylesheet does to the header and the page, as the browser computed it. */
const styled = (page: Page) =>
  page.evaluate(() => {
    const body = getComputedStyle(document.body);
    const main = document.querySelector("main")!;
    return { bodyDisplay: body.display, mainGrows: getComputedStyle(main).flexGrow };
  });

test("pages carry their styles inline: styled before any script runs, and after React takes over", async ({
  browser,
  request,
}) => {
  for (const { path: address } of PAGES) {
    const html = await (await request.get(address)).text();
    const head = html.slice(0, html.indexOf("</head>"));
    // Nothing to fetch before the first paint: no stylesheet, the rules are in the head.
    expect(head).not.toMatch(/<link[^>]+rel="stylesheet"/);
    expect(head).toMatch(/<style>[^<]*\.flex\{display:flex\}/);
  }

  // Without JavaScript, the page is styled as sent.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await plain.newPage();
    await page.goto("/antivirus/mcafee");
    expect(await styled(page)).toEqual({ bodyDisplay: "flex", mainGrows: "1" });
  } finally {
    await plain.close();
  }

  // With it: React hydrates without complaint, keeps the styles, and pages it renders itself are styled too.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = await watchErrors(page);
    await page.goto("/antivirus/mcafee");
    await hydrated(page);
    expect(await page.locator("head style").count()).toBe(1);
    await page.getByTestId("product-card").first().getByRole("link").first().click();
    await expect(page).toHaveURL(/\/antivirus\/mcafee\/[^/]+$/);
    await expect(page.getByTestId("add-to-cart")).toBeVisible();
    expect(await styled(page)).toEqual({ bodyDisplay: "flex", mainGrows: "1" });
    expect(await page.locator("head style").count()).toBe(1);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

for (const width of [360, 1280]) {
  test(`nothing moves while the pages load, ${width} px wide`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    try {
      const page = await context.newPage();
      // Every layout shift from the start of the load, as Lighthouse counts them (not those after an input).
      await page.addInitScript(() => {
        const shifts: number[] = [];
        (window as unknown as { shifts: number[] }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<
            PerformanceEntry & { value: number; hadRecentInput: boolean }
          >)
            if (!entry.hadRecentInput) shifts.push(entry.value);
        }).observe({ type: "layout-shift", buffered: true });
      });
      for (const { name, path: address } of PAGES) {
        await page.goto(address);
        await hydrated(page);
        await page.waitForLoadState("load");
        // Images reserve their box before they arrive.
        const unsized = await page
          .locator("main img")
          .evaluateAll(
            (images) =>
              images.filter((image) => !image.getAttribute("width") || !image.getAttribute("height")).length,
          );
        expect(unsized, name).toBe(0);
        const shift = await page.evaluate(() =>
          (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0),
        );
        expect(shift, name).toBeLessThanOrEqual(0.01);
        await screenshot(page, `first-load-${name.replace(" ", "-")}-${width}`);
      }
    } finally {
      await context.close();
    }
  });
}

// A browser may paint a page before it has read all of it (rarely on a fast machine, more often on a phone): the
// header's pieces must not move when the ones read after them arrive. Taking them away from the end of the
// document, as it was read so far, must leave the name and the search where they were.
for (const width of [360, 800, 1280]) {
  test(`the header's name and search stay put on a page painted before the rest of the header, ${width} px wide`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto("/antivirus/mcafee");
      await hydrated(page);
      const places = await page.evaluate(() => {
        const header = document.querySelector('[data-testid="site-header"]')!;
        const place = (selector: string) => {
          const element = header.querySelector(selector);
          if (!element) return null;
          const box = element.getBoundingClientRect();
          return [box.x, box.y, box.width, box.height].map(Math.round).join(",");
        };
        const read = () => ({ name: place('a[href="/"]'), search: place('form[role="search"]') });
        const account = header.querySelector('[data-testid="cart-link"]')!.parentElement!;
        const steps = [
          ["everything", () => undefined],
          ["before the cart", () => header.querySelector('[data-testid="cart-link"]')!.remove()],
          ["before the sign-in link", () => header.querySelector('[data-testid="sign-in-link"]')!.remove()],
          ["before the account's row", () => account.remove()],
          ["before the search", () => header.querySelector('form[role="search"]')!.remove()],
        ] as const;
        return steps.map(([label, takeAway]) => {
          takeAway();
          return { label, ...read() };
        });
      });
      const [all, ...partial] = places;
      expect(all!.name).not.toBeNull();
      expect(all!.search).not.toBeNull();
      for (const step of partial) {
        expect(step.name, step.label).toBe(all!.name);
        if (step.search !== null) expect(step.search, step.label).toBe(all!.search);
      }
    } finally {
      await context.close();
    }
  });
}
