import { describe, expect, it } from "vitest";
import { olderNodeNotice } from "./runtime";

describe("olderNodeNotice", () => {
  it("speaks up on a Node older than the tested one, and only then", () => {
    expect(olderNodeNotice("20.20.2")).toBe(
      "This server runs on Node 20.20.2, older than the Node 24 the store is tested on: start it with npm start, " +
        "which uses the Node that npm ci installed, or install Node 24",
    );
    expect(olderNodeNotice("v22.1.0")).toContain("runs on Node 22.1.0");
    expect(olderNodeNotice("24.21.0")).toBeUndefined();
    expect(olderNodeNotice("26.0.0")).toBeUndefined();
    expect(olderNodeNotice(process.versions.node)).toBeUndefined();
  });
});
