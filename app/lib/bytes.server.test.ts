import { describe, expect, it } from "vitest";
import { replaceAllBytes } from "./bytes.server";

const replace = (text: string, search: string, replacement: string) =>
  replaceAllBytes(Buffer.from(text), Buffer.from(search), Buffer.from(replacement)).toString();

describe("replaceAllBytes", () => {
  it("replaces every occurrence, at the start, in the middle and at the end", () => {
    expect(replace("abXcdXXefX", "X", "--")).toBe("ab--cd----ef--");
    expect(replace("Xab", "X", "")).toBe("ab");
  });

  it("works on UTF-8 bytes and does not rescan what it put in", () => {
    expect(replace('é nonce="n" ü nonce="n"', ' nonce="n"', "")).toBe("é ü");
    expect(replace("aa", "a", "aa")).toBe("aaaa");
  });

  it("hands back the same buffer when there is nothing to replace", () => {
    const bytes = Buffer.from("nothing here");
    expect(replaceAllBytes(bytes, Buffer.from("X"), Buffer.from("Y"))).toBe(bytes);
  });
});
