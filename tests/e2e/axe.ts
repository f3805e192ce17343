import AxeBuilder from "@axe-core/playwright";
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
 * An axe run over the page, reporting only violations. Legacy mode runs axe in the page itself (and its same-origin
 * frames, which are all the store has): the default opens a blank page for each run to merge frames' results in,
 * which cost more than the checks. Only violations are asked for, so the page does not describe every node that
 * passed.
 */
export function axeOf(page: Page) {
  return new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] });
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
