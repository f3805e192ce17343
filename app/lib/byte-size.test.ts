import { describe, expect, it } from "vitest";
import { formatBytes } from "./byte-size";

describe("formatBytes", () => {
  it("says bytes below a KiB, and one decimal above, none when whole", () => {
    expect(formatBytes(0)).toBe("0 bytes");
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(1023)).toBe("1023 bytes");
    expect(formatBytes(1024)).toBe("1 KiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(128 * 1024)).toBe("128 KiB");
    expect(formatBytes(1_000_000)).toBe("976.6 KiB");
    expect(formatBytes(10 * 1024 * 1024)).toBe("10 MiB");
    expect(formatBytes(10 * 1024 * 1024 + 64 * 1024)).toBe("10.1 MiB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3 GiB");
  });

  it("rounds up a size over a limit, so it never reads as the limit itself", () => {
    expect(formatBytes(1024 * 1024 + 1)).toBe("1 MiB");
    expect(formatBytes(1024 * 1024 + 1, "up")).toBe("1.1 MiB");
    expect(formatBytes(2 * 1024 * 1024, "up")).toBe("2 MiB");
    // Just below a MiB it stays in KiB.
    expect(formatBytes(1024 * 1024 - 30, "up")).toBe("1024 KiB");
  });
});
