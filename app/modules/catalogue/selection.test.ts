import { describe, expect, it } from "vitest";
import { isAdminPath, isPaymentPath, selectedBrandFor } from "./selection";

describe("selected brand from the path", () => {
  it("matches the spec's words case-insensitively", () => {
    expect(selectedBrandFor("/antivirus/mcafee/total-protection")).toBe("McAfee");
    expect(selectedBrandFor("/ANTIVIRUS/NORTON")).toBe("Norton");
    expect(selectedBrandFor("/Windows/Windows7/Professional")).toBe("Windows7");
    expect(selectedBrandFor("/antvirus/pcmatic/pc-matic-home")).toBe("PCMatic");
    expect(selectedBrandFor("/router/tplink/archer-ax55")).toBe("tplink");
  });

  it("takes the first word in the spec's order when several match", () => {
    // "avast" comes before "hp" in the list.
    expect(selectedBrandFor("/hp/avast")).toBe("Avast");
    expect(selectedBrandFor("/printer/hp-laserjet-pro-m404n")).toBe("hp");
  });

  it("selects nothing for paths without a brand word, Webroot included (it is not in the list)", () => {
    expect(selectedBrandFor("/")).toBeNull();
    expect(selectedBrandFor("/about")).toBeNull();
    expect(selectedBrandFor("/antivirus/webroot")).toBeNull();
  });
});

describe("layout flags", () => {
  it("treats any path containing admin as the admin area", () => {
    expect(isAdminPath("/admin")).toBe(true);
    expect(isAdminPath("/admin/orders")).toBe(true);
    expect(isAdminPath("/some/administrator")).toBe(true);
    expect(isAdminPath("/antivirus")).toBe(false);
  });

  it("tracks only /payment as the payment page", () => {
    expect(isPaymentPath("/payment")).toBe(true);
    expect(isPaymentPath("/Payment/")).toBe(true);
    expect(isPaymentPath("/payments")).toBe(false);
    expect(isPaymentPath("/cart")).toBe(false);
  });
});
