import { describe, expect, it } from "vitest";
import { canManage, requireManage, requireRead, type Viewer } from "./access.server";
import { type BucketConfig, bucketsFromEnv } from "./buckets.server";

const buckets = bucketsFromEnv({
  STORAGE_MAX_OBJECT_BYTES: 1000,
  STORAGE_PRODUCTS_QUOTA_BYTES: 10_000,
  STORAGE_UPLOADS_QUOTA_BYTES: 10_000,
  STORAGE_UPLOADS_USER_QUOTA_BYTES: 2_000,
});
const products = buckets.get("products") as BucketConfig;
const uploads = buckets.get("uploads") as BucketConfig;
const admin: Viewer = { id: "a1", role: "admin" };
const ada: Viewer = { id: "ada", role: "customer" };

const code = (run: () => unknown) => {
  try {
    run();
    return "allowed";
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe("storage access rules", () => {
  it("lets admins write anywhere and customers only under users/{their id}/ in buckets taking customer uploads", () => {
    expect(canManage(admin, products, "brands/logo.png")).toBe(true);
    expect(canManage(admin, uploads, "users/ada/x.png")).toBe(true);
    expect(canManage(ada, uploads, "users/ada/x.png")).toBe(true);
    expect(canManage(ada, uploads, "users/ada/deep/er/x.png")).toBe(true);
    expect(canManage(ada, uploads, "users/adam/x.png")).toBe(false);
    expect(canManage(ada, uploads, "users/ada")).toBe(false);
    expect(canManage(ada, uploads, "x.png")).toBe(false);
    expect(canManage(ada, products, "users/ada/x.png")).toBe(false);
    // An id that is not a single path segment owns nothing.
    expect(canManage({ id: "", role: "customer" }, uploads, "users//x.png")).toBe(false);
    expect(canManage({ id: "a/b", role: "customer" }, uploads, "users/a/b/x.png")).toBe(false);
    expect(canManage({ id: "..", role: "customer" }, uploads, "users/../x.png")).toBe(false);
  });

  it("answers unauthenticated without an identity and unauthorized for the wrong one", () => {
    expect(code(() => requireManage(null, uploads, "users/ada/x.png"))).toBe("storage/unauthenticated");
    expect(code(() => requireManage(ada, uploads, "users/bob/x.png"))).toBe("storage/unauthorized");
    expect(code(() => requireManage(ada, uploads, "users/ada/x.png"))).toBe("allowed");
    // Public buckets are readable by anyone; private ones as they are writable.
    expect(code(() => requireRead(null, products, "brands/logo.png"))).toBe("allowed");
    expect(code(() => requireRead(null, uploads, "users/ada/x.png"))).toBe("storage/unauthenticated");
    expect(code(() => requireRead(ada, uploads, "users/bob/x.png"))).toBe("storage/unauthorized");
    expect(code(() => requireRead(admin, uploads, "users/bob/x.png"))).toBe("allowed");
  });
});
