import { existsSync } from "node:fs";

/**
 * The Chromium the end-to-end tests and the web benchmark drive: CHROMIUM_PATH when set, else Debian's headless
 * shell (package chromium-headless-shell), else Debian's full browser (package chromium).
 *
 * The shell first: the full browser run headless still builds its own interface, and on a 2-core machine its
 * address bar's pop-up (a page of its own, in a renderer of its own) took about two seconds of CPU for every new
 * browser context, beside the page under test. With the shell, the end-to-end tests ran a fifth faster and
 * Lighthouse's total blocking time of the home page fell from 700-870 ms to 180-300 ms.
 */
export const CHROMIUM_CANDIDATES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

export function chromiumPath(): string {
  const chosen = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (!chosen || !existsSync(chosen)) {
    throw new Error(
      `No Chromium at ${chosen ?? CHROMIUM_CANDIDATES.join(" or ")}. Install it with ` +
        '"apt-get install -y chromium-headless-shell" (Debian/Ubuntu) or point CHROMIUM_PATH at a Chromium or ' +
        "Chrome binary.",
    );
  }
  return chosen;
}
