import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashInlineScripts as hashInlineScriptsOfBytes } from "./script-hashes";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
const NONCE = "r4nd0m+N/once==";
const POLICY = `script-src 'self' 'nonce-${NONCE}';style-src 'self' 'unsafe-inline'`;

/** The function on a page's text, its page read back as text. */
function hashInlineScripts(page: string, nonce: string, policy: string | undefined) {
  const shared = hashInlineScriptsOfBytes(Buffer.from(page, "utf8"), nonce, policy);
  return shared && { html: shared.html.toString("utf8"), policy: shared.policy };
}

describe("hashInlineScripts", () => {
  it("takes the nonce out of the page and allows each inline script by its hash instead", () => {
    const page =
      `<html><head><link rel="modulepreload" href="/assets/a.js" nonce="${NONCE}"/></head><body>` +
      `<script nonce="${NONCE}">window.__ctx = {"a":"é"};</script>` +
      `<script type="module" async="" nonce="${NONCE}">import "/assets/a.js";</script>` +
      `<script src="/assets/b.js" nonce="${NONCE}"></script></body></html>`;
    const shared = hashInlineScripts(page, NONCE, POLICY)!;
    expect(shared.html).not.toContain(NONCE);
    expect(shared.html).toBe(page.replaceAll(` nonce="${NONCE}"`, ""));
    expect(shared.policy).toBe(
      `script-src 'self' ${sha256('window.__ctx = {"a":"é"};')} ${sha256('import "/assets/a.js";')};style-src 'self' 'unsafe-inline'`,
    );
  });

  it("lists a script that appears twice once", () => {
    const page = `<script nonce="${NONCE}">a()</script><script nonce="${NONCE}">a()</script>`;
    expect(hashInlineScripts(page, NONCE, POLICY)!.policy).toBe(
      `script-src 'self' ${sha256("a()")};style-src 'self' 'unsafe-inline'`,
    );
  });

  it("refuses a page that shows the nonce anywhere else, or a policy without it", () => {
    expect(
      hashInlineScripts(`<p>${NONCE}</p><script nonce="${NONCE}">a()</script>`, NONCE, POLICY),
    ).toBeNull();
    expect(hashInlineScripts(`<script nonce="${NONCE}">a()</script>`, NONCE, "script-src 'self'")).toBeNull();
    expect(hashInlineScripts(`<script>a()</script>`, "", POLICY)).toBeNull();
    for (const elsewhere of [
      `${NONCE}<script nonce="${NONCE}">a()</script>`,
      `<script nonce="${NONCE}${NONCE}">a()</script>`,
      `<script data-nonce="${NONCE}">a()</script>`,
      `<script nonce="${NONCE}">a()</script><p>${NONCE}`,
    ]) {
      expect(hashInlineScripts(elsewhere, NONCE, POLICY)).toBeNull();
    }
  });

  it("hashes only script elements, their text byte for byte, and stops at an unclosed one", () => {
    const page =
      `<p>&lt;script&gt; in text</p><scripts nonce="${NONCE}">not a script</scripts>` +
      `<script\ttype="application/json" nonce="${NONCE}">{"n":"ü"}</script>` +
      `<script nonce="${NONCE}">b()`;
    const shared = hashInlineScripts(page, NONCE, POLICY)!;
    expect(shared.html).toBe(page.replaceAll(` nonce="${NONCE}"`, ""));
    expect(shared.policy).toBe(`script-src 'self' ${sha256('{"n":"ü"}')};style-src 'self' 'unsafe-inline'`);
  });

  it("leaves the page alone where there is no policy (development)", () => {
    expect(hashInlineScripts(`<script nonce="${NONCE}">a()</script>`, NONCE, undefined)).toEqual({
      html: `<script nonce="${NONCE}">a()</script>`,
      policy: undefined,
    });
  });
});
