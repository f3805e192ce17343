/** Carriers the store knows, with the page that follows a parcel; any other carrier gives its own tracking URL. */
export const CARRIERS = {
  ups: { name: "UPS", url: "https://www.ups.com/track?tracknum={n}" },
  fedex: { name: "FedEx", url: "https://www.fedex.com/fedextrack/?trknbr={n}" },
  usps: { name: "USPS", url: "https://tools.usps.com/go/TrackConfirmAction?tLabels={n}" },
  dhl: {
    name: "DHL",
    url: "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={n}",
  },
  other: { name: "Other carrier", url: null },
} as const satisfies Record<string, { name: string; url: string | null }>;
export type Carrier = keyof typeof CARRIERS;
export const CARRIER_KEYS = Object.keys(CARRIERS) as [Carrier, ...Carrier[]];

const isCarrier = (carrier: string): carrier is Carrier => Object.hasOwn(CARRIERS, carrier);

/** The carrier's name as the customer reads it: a known one's, or the name given for another. */
export function carrierName(carrier: string): string {
  return isCarrier(carrier) ? CARRIERS[carrier].name : carrier;
}

/** The known carrier a name stands for ("ups", "UPS"), if any: another carrier may not be named so. */
export function knownCarrierNamed(name: string): Carrier | undefined {
  const wanted = name.trim().toLowerCase();
  return CARRIER_KEYS.find((key) => key === wanted || CARRIERS[key].name.toLowerCase() === wanted);
}

/** The link that follows a parcel: the carrier's own page, or the URL the store gave for any other carrier. */
export function trackingLink(shipment: {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
}): string | null {
  if (shipment.trackingUrl) return shipment.trackingUrl;
  const template = carrierTemplate(shipment.carrier);
  return template
    ? template.replace("{n}", encodeURIComponent(shipment.trackingNumber.replace(/\s+/g, "")))
    : null;
}

function carrierTemplate(carrier: string): string | null {
  return isCarrier(carrier) ? CARRIERS[carrier].url : null;
}

/** Where a line stands, in the words both the customer and the admin read. */
export type LineState =
  | "cancelled"
  | "refunded"
  | "awaiting shipment"
  | "shipped"
  | "delivered keys"
  | "keys to follow";

export function lineState(line: {
  kind: string;
  quantity: number;
  refunded: boolean;
  shipped: boolean;
  keyCount: number;
  /** Its order was cancelled before payment: nothing of it is delivered. */
  cancelled?: boolean;
}): LineState {
  if (line.cancelled) return "cancelled";
  if (line.refunded) return "refunded";
  if (line.kind === "physical") return line.shipped ? "shipped" : "awaiting shipment";
  return line.keyCount >= line.quantity ? "delivered keys" : "keys to follow";
}

export const LINE_STATE_LABELS: Record<LineState, string> = {
  cancelled: "Cancelled: not delivered",
  refunded: "Refunded",
  "awaiting shipment": "Awaiting shipment",
  shipped: "Shipped",
  "delivered keys": "Delivered keys",
  "keys to follow": "Keys to follow",
};
