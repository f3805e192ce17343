import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { gzipSize, scriptsOf } from "../../scripts/bench-web/first-load";
import { hydrated } from "./hydrated";

/** The pages the budget holds for (docs/decisions/0025-first-load-budget.md), as the web benchmark loads them. */
const PAGES = [
  { name: "home", path: "/" },
  { name: "brand page", path: "/antivirus/mcafee" },
  { name: "product page", path: "/antivirus/mcafee/total-protection" },
];
/** First-load JavaScript, gzip, in KB (1,024 bytes). */
const BUDGET_KB = 120;

test("home, a brand page and a product page load at most 120 KB of JavaScript (gzip) first", async ({
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
    // The page paints from its HTML: the scripts it preloads wait behind the document and its images.
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(preloads.length, page.name).toBeGreaterThan(0);
    for (const link of preloads) expect(link, page.name).toContain('fetchpriority="low"');
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
        await page.screenshot({
          path: `test-results/screenshots/first-load-${name.replace(" ", "-")}-${width}.png`,
        });
      }
    } finally {
      await context.close();
    }
  });
}
