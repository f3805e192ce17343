import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/lib/forms";
import { carrierName, trackingLink } from "~/modules/orders/tracking";
import { shipmentInput } from "./action-schemas";

const errorsOf = (input: unknown) => {
  const parsed = shipmentInput.safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
};
const parcel = { trackingNumber: "PARCEL-2", trackingUrl: "https://track.example.com/PARCEL-2" };

describe("a shipment's carrier", () => {
  it("is one of the list, or another one by a name the customer can read", () => {
    expect(errorsOf({ ...parcel })).toEqual({ carrier: "Choose the carrier" });
    expect(errorsOf({ ...parcel, carrier: "royal-mail" })).toEqual({ carrier: "Choose the carrier" });
    expect(errorsOf({ ...parcel, carrier: "other" })).toEqual({ otherCarrier: "Enter the carrier's name" });
    expect(errorsOf({ ...parcel, carrier: "other", otherCarrier: "   " })).toEqual({
      otherCarrier: "Enter the carrier's name",
    });
    expect(shipmentInput.parse({ ...parcel, carrier: "other", otherCarrier: " Parcelforce " })).toMatchObject(
      {
        carrier: "other",
        otherCarrier: "Parcelforce",
      },
    );
    // "all" is a name like any other (it means every line in the line field, not here).
    expect(errorsOf({ ...parcel, carrier: "other", otherCarrier: "all" })).toEqual({});
  });

  it("another carrier may not be named as one of the list, or as 'Other carrier'", () => {
    expect(errorsOf({ ...parcel, carrier: "other", otherCarrier: "ups" })).toEqual({
      otherCarrier: "UPS is in the list: choose it there",
    });
    expect(errorsOf({ ...parcel, carrier: "other", otherCarrier: "Fedex" })).toEqual({
      otherCarrier: "FedEx is in the list: choose it there",
    });
    expect(errorsOf({ ...parcel, carrier: "other", otherCarrier: "Other carrier" })).toEqual({
      otherCarrier: "Enter the carrier's name",
    });
    expect(errorsOf({ ...parcel, carrier: "other", otherCarrier: "Parcel\nforce" })).toEqual({
      otherCarrier: "Keep it on one line: no line breaks or tabs",
    });
  });

  it("is read by its own name, whatever the name, and a name is never taken for an object's own property", () => {
    expect(carrierName("ups")).toBe("UPS");
    expect(carrierName("Parcelforce")).toBe("Parcelforce");
    expect(carrierName("__proto__")).toBe("__proto__");
    expect(carrierName("constructor")).toBe("constructor");
    expect(trackingLink({ carrier: "constructor", trackingNumber: "X-1", trackingUrl: null })).toBeNull();
  });

  it("is refused without throwing whatever the input", () => {
    for (const input of [null, undefined, 42, "ship", []])
      expect(shipmentInput.safeParse(input).success).toBe(false);
  });
});
