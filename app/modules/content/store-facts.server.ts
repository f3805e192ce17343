import { companyDetails, webInfo } from "~db/schema";
import type { ServerContext } from "~/context";
import { fromSnapshot } from "./snapshot.server";

/**
 * Facts that live in the store's settings and that its texts (SEO records, policy pages) mention: the name, the
 * support e-mail and phone, and how a buyer can pay. Texts say `{store}`, `{email}`, `{phone}` and `{payments}`, and
 * get today's facts at each render, so renaming the store or configuring card payments changes every page at once.
 */
export type StoreFacts = { store: string; email: string; phone: string; payments: string };

/** How a buyer can pay, as a text says it: "by card … or by bank transfer" only when card payments are set up. */
export const paymentsText = (cards: boolean) =>
  cards ? "by card through our secure hosted checkout, or by bank transfer" : "by bank transfer";

export async function storeFacts(
  context: Pick<ServerContext, "db" | "env"> & Partial<Pick<ServerContext, "contentVersion">>,
): Promise<StoreFacts> {
  const [info, company] = await fromSnapshot(context, "store-facts", () =>
    Promise.all([
      context.db.select({ name: webInfo.name, email: webInfo.email }).from(webInfo).limit(1),
      context.db.select({ phone: companyDetails.phone }).from(companyDetails).limit(1),
    ]).then(([[info], [company]]) => [info, company] as const),
  );
  const cards = Boolean(context.env.STRIPE_SECRET_KEY && context.env.STRIPE_WEBHOOK_SECRET);
  return {
    store: info?.name ?? "",
    email: info?.email ?? "",
    phone: company?.phone ?? "",
    payments: paymentsText(cards),
  };
}

/** `text` with each placeholder replaced by today's fact; other braces are left as they are. */
export const withStoreFacts = (text: string, facts: StoreFacts) =>
  text.replace(/\{(store|email|phone|payments)\}/g, (_, key: keyof StoreFacts) => facts[key]);
