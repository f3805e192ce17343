import { describe, expect, it } from "vitest";
import { StorageError } from "./errors";
import { checkObjectPath, objectName, objectUrlPath, uploadUrlPath } from "./paths";

describe("object paths", () => {
  it("accepts paths inside the bucket", () => {
    for (const fullPath of [
      "a.png",
      "users/u1/photo.png",
      "brands/McAfee logo (2).webp",
      "ünïcode/名前.png",
      "a..b.png",
    ]) {
      expect(checkObjectPath(fullPath)).toBe(fullPath);
    }
    expect(objectName("users/u1/photo.png")).toBe("photo.png");
  });

  it("refuses paths that could leave the bucket or confuse a file system", () => {
    for (const fullPath of [
      "",
      "/abs.png",
      "../up.png",
      "a/../../up.png",
      "a/./b.png",
      "..",
      "a//b.png",
      "a/",
      "a\\b.png",
      "nul\u0000.png",
      "line\nbreak.png",
      "hash#1.png",
      "star*.png",
      `${"x".repeat(201)}.png`,
      "a/".repeat(600) + "b",
    ]) {
      expect(() => checkObjectPath(fullPath), JSON.stringify(fullPath)).toThrow(StorageError);
      try {
        checkObjectPath(fullPath);
      } catch (error) {
        expect((error as StorageError).code).toBe("storage/invalid-argument");
      }
    }
  });

  it("encodes the object path as one URL segment", () => {
    expect(objectUrlPath("uploads", "users/u1/a b.png")).toBe(
      "/api/storage/v0/b/uploads/o/users%2Fu1%2Fa%20b.png",
    );
    expect(uploadUrlPath("uploads", "users/u1/a&b.png")).toBe(
      "/api/storage/v0/b/uploads/o?name=users%2Fu1%2Fa%26b.png",
    );
  });
});
