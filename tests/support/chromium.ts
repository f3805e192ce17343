import { existsSync } from "node:fs";

/**
 * The Chromium the end-to-end tests and the web benchmark drive: CHROMIUM_PATH when set, else Debian's headless
 * shell (package chromium-headless-shell), else Debian's full browser (package chromium). The shell first: the full
 * browser, run headless, still draws its own interface beside the page under test (docs/decisions/0027).
 */
const CANDIDATES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

export function chromiumPath(): string {
  const chosen = process.env.CHROMIUM_PATH ?? CANDIDATES.find((candidate) => existsSync(candidate));
  if (!chosen || !existsSync(chosen)) {
    throw new Error(
      `No Chromium at ${chosen ?? CANDIDATES.join(" or ")}. Install it with ` +
        '"apt-get install -y chromium-headless-shell" (Debian/Ubuntu) or point CHROMIUM_PATH at a Chromium or ' +
        "Chrome binary.",
    );
  }
  return chosen;
}
