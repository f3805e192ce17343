import { describe, expect, it } from "vitest";
import { summarize, withStoreName } from "./summary";

describe("summarize", () => {
  it("keeps a short first paragraph whole, as plain text, past headings", () => {
    expect(
      summarize("## Who we are\n\nWe sell **genuine** [licences](/about) and _printers_.\n\nMore."),
    ).toBe("We sell genuine licences and printers.");
    expect(summarize("- One\n- Two")).toBe("One Two");
  });

  it("cuts a long paragraph at a word, with an ellipsis, within the limit", () => {
    const text = "word ".repeat(100);
    const summary = summarize(text, 50);
    expect(summary.length).toBeLessThanOrEqual(50);
    expect(summary).toMatch(/^(word )+word…$/);
  });

  it("gives nothing for nothing", () => {
    expect(summarize("")).toBe("");
    expect(summarize("\n\n  \n")).toBe("");
  });
});

describe("withStoreName", () => {
  it("puts the store's name after a page's name once", () => {
    expect(withStoreName("Checkout", "KeyHaven")).toBe("Checkout | KeyHaven");
    expect(withStoreName("Checkout | KeyHaven", "KeyHaven")).toBe("Checkout | KeyHaven");
    expect(withStoreName("Checkout", "")).toBe("Checkout");
    expect(withStoreName("", "KeyHaven")).toBe("KeyHaven");
  });
});
