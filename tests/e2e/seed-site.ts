import { readFileSync } from "node:fs";

const text = readFileSync("app/modules/seed/data/site.json", "utf8");
const raw = JSON.parse(text) as {
  company: { phone: string };
  webInfo: { name: string; email: string };
};

/** The demo store's name, as its web info says it. */
export const STORE = raw.webInfo.name;

/**
 * A text of the demo store as a page shows it: its placeholders filled with the demo store's facts (card payments
 * are not set up in the tests, so {payments} is bank transfer).
 */
export const asShown = (value: string) =>
  value
    .replaceAll("{store}", STORE)
    .replaceAll("{email}", raw.webInfo.email)
    .replaceAll("{phone}", raw.company.phone)
    .replaceAll("{payments}", "by bank transfer");

/** The demo store's site data (app/modules/seed/data/site.json) with its texts as the pages show them. */
export const seedSite = <T>() => JSON.parse(asShown(text)) as T;
