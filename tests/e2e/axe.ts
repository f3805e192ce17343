import AxeBuilder from "@axe-core/playwright";
import axe from "axe-core";
import { expect, type Page } from "@playwright/test";

/** The rules the store is held to: WCAG 2.2 at level AA. */
export const WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * Resolves once the page's transitions and finite animations have run: axe reads colours as they are drawn at that
 * moment, and a button fading back from its busy state would be measured half-way (an infinite spinner is not
 * waited for).
 */
export async function animationsDone(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * axe in each of the page's frames once per document: AxeBuilder sends its 560 KB of source to every frame twice on
 * each run (measured: the Playwright worker's biggest single cost, writing those messages to Chromium, which parses
 * and compiles them again), where a page checked twice, or after an in-app navigation, has it already. The builder
 * is given a source that does nothing; the frames that lack axe get the real one first. Its configuration (same-origin
 * frames only) is still set by the builder on each run.
 */
class AxeOncePerDocument extends AxeBuilder {
  readonly #page: Page;
  constructor(page: Page) {
    super({ page, axeSource: "void 0" });
    this.#page = page;
  }
  override async analyze() {
    for (const frame of this.#page.frames()) {
      // A frame that cannot be reached (detached meanwhile) is left out, as the builder leaves it out.
      const present = await frame
        .evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === "function")
        .catch(() => true);
      if (!present) await frame.evaluate(axe.source).catch(() => undefined);
    }
    return super.analyze();
  }
}

/**
 * An axe run over the page, reporting only violations. Legacy mode runs axe in the page itself (and its same-origin
 * frames, which are all the store has): the default opens a blank page for each run to merge frames' results in,
 * which cost more than the checks. Only violations are asked for, so the page does not describe every node that
 * passed.
 */
export function axeOf(page: Page) {
  return new AxeOncePerDocument(page).setLegacyMode().options({ resultTypes: ["violations"] });
}

/**
 * No serious or critical axe violations of WCAG 2.2 AA on the page (as `configure` narrows it), once its transitions
 * have run.
 */
export async function expectAccessible(
  page: Page,
  label = page.url(),
  configure: (builder: AxeBuilder) => AxeBuilder = (builder) => builder,
) {
  await animationsDone(page);
  const { violations } = await configure(axeOf(page).withTags(WCAG_AA)).analyze();
  expect(
    violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`),
    label,
  ).toEqual([]);
}
