import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keyCipher, keyHint } from "./key-cipher.server";

const cipher = keyCipher(randomBytes(32).toString("base64url"));

describe("licence keys at rest", () => {
  it("round-trips, never stores the key in clear, and differs each time", () => {
    const sealed = cipher.encrypt("ABCDE-FGHIJ-KLMNO-PQRST");
    expect(sealed).not.toContain("ABCDE");
    expect(cipher.decrypt(sealed)).toBe("ABCDE-FGHIJ-KLMNO-PQRST");
    expect(cipher.encrypt("ABCDE-FGHIJ-KLMNO-PQRST")).not.toBe(sealed);
  });

  it("refuses a tampered or foreign ciphertext", () => {
    const sealed = cipher.encrypt("KEY-1");
    const [iv, tag, body] = sealed.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => cipher.decrypt([iv, tag, flipped.toString("base64url")].join("."))).toThrow();
    expect(() => keyCipher(randomBytes(32).toString("base64url")).decrypt(sealed)).toThrow();
  });

  it("fingerprints keys ignoring case and spaces, and hints only the last four characters", () => {
    expect(cipher.fingerprint(" abcd-1234 ")).toBe(cipher.fingerprint("ABCD-1234"));
    expect(cipher.fingerprint("ABCD-1234")).not.toBe(cipher.fingerprint("ABCD-1235"));
    expect(keyHint("abcd-efgh-1234")).toBe("••••1234");
  });
});
