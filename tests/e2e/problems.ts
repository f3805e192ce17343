import type { Page } from "@playwright/test";
import { hydrated } from "./hydrated";

/**
 * What Chromium's issues panel reports (Audits.issueAdded), what the page logs as an error, and every Content
 * Security Policy violation, while pages load. A page's own expected status (a 404 page) is not a problem. `visit`
 * loads a page, waits for React and for the reports of what the page did so far, and gives the page's response.
 */
export async function watchProblems(page: Page) {
  const problems: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on("Audits.issueAdded", ({ issue }) =>
    problems.push(`${page.url()}: issue ${issue.code} ${JSON.stringify(issue.details)}`),
  );
  await cdp.send("Audits.enable");
  page.on("console", (message) => {
    const notFoundPage = message.text().includes("status of 404") && message.location().url === page.url();
    if (message.type() === "error" && !notFoundPage)
      problems.push(`${page.url()}: console ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  async function visit(path: string) {
    const response = await page.goto(path);
    await hydrated(page);
    await page.waitForLoadState("load");
    // A round trip to the page on each session: the reports the page sent before it have arrived.
    await cdp.send("Runtime.evaluate", { expression: "0" });
    await page.evaluate(() => 0);
    return response;
  }
  return { problems, visit };
}
