import { describe, expect, it } from "vitest";
import { checkObjectPath } from "~/modules/storage/paths";
import { productImagePath } from "./product-image-path";

describe("the path of an uploaded product image", () => {
  it("keeps a safe form of the file's name and adds a time suffix", () => {
    const now = 1_700_000_000_000;
    expect(productImagePath({ name: "Norton 360 Box.PNG" }, now)).toBe(
      `images/norton-360-box-${now.toString(36)}.png`,
    );
    expect(productImagePath({ name: "../../etc/passwd" }, now)).toBe(`images/passwd-${now.toString(36)}`);
    expect(productImagePath({ name: "#[*?].jpg" }, now)).toBe(`images/image-${now.toString(36)}.jpg`);
    expect(productImagePath({ name: ".hidden" }, now)).toBe(`images/hidden-${now.toString(36)}`);
    for (const name of ["a".repeat(500) + ".webp", "ünïcødé.gif", "x\u0000y.png"]) {
      expect(() => checkObjectPath(productImagePath({ name }, now))).not.toThrow();
    }
  });
});
