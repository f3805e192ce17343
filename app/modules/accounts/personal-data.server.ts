/**
 * What stays and what goes of an account's personal data: the rules better-auth's hooks call (no better-auth import
 * here, so auth.server.ts can use them).
 */
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Database } from "~db/client.server";
import {
  type Address,
  addresses,
  licenceKeyReports,
  orderEvents,
  orders,
  outboxEmails,
  stockAlerts,
  user,
} from "~db/schema";

/** What deleted customers' orders keep in place of an address: the country stays (the store's tax records). */
export const DELETED_CUSTOMER_EMAIL = "deleted-customer@deleted.invalid";
export const DELETED_CUSTOMER_NAME = "Deleted customer";
const REMOVED_EMAIL_TEXT = "This e-mail was removed when the customer deleted their account.";

const anonymousAddress = (address: Address | null): Address | null =>
  address
    ? {
        name: DELETED_CUSTOMER_NAME,
        line1: "",
        line2: "",
        city: "",
        region: "",
        postalCode: "",
        country: address.country,
        phone: "",
      }
    : null;

/**
 * Before an account's row is deleted (by the customer, or any other way): its orders stay for the store's records
 * (numbers, lines, amounts, payment and status history) but lose the personal data the store may remove: the
 * e-mail address, names, street addresses and phone numbers, the link to the account and the secret order links
 * (they stop working). The account's orders are those placed signed in, and, for a confirmed address, those placed
 * as a guest with it. E-mails the store wrote to the customer keep their subject and status but not their text; the
 * owner's notices about those orders stay as they are, addressed to the owner.
 * Addresses and sessions go with the account row (foreign keys). One transaction: all of it or nothing.
 */
export async function detachPersonalData(
  db: Database,
  account: { id: string; email: string; emailVerified: boolean },
): Promise<{ orders: number }> {
  const email = account.email.toLowerCase();
  return db.transaction(async (tx) => {
    const theirs = account.emailVerified
      ? or(eq(orders.userId, account.id), eq(sql`lower(${orders.email})`, email))
      : eq(orders.userId, account.id);
    const found = await tx
      .select({
        id: orders.id,
        email: orders.email,
        billingAddress: orders.billingAddress,
        shippingAddress: orders.shippingAddress,
      })
      .from(orders)
      .where(theirs);
    for (const order of found) {
      await tx
        .update(orders)
        .set({
          userId: null,
          email: DELETED_CUSTOMER_EMAIL,
          billingAddress: anonymousAddress(order.billingAddress)!,
          shippingAddress: anonymousAddress(order.shippingAddress),
          accessVersion: sql`${orders.accessVersion} + 1`,
          updatedAt: new Date(),
        })
        .where(eq(orders.id, order.id));
    }
    if (found.length > 0) {
      await tx.insert(orderEvents).values(
        found.map((order) => ({
          orderId: order.id,
          type: "customer-deleted",
          actor: "customer",
          message: "The customer deleted their account; their personal data was removed from this order.",
        })),
      );
    }
    // The customer's e-mails: to the account's address, or to the address an order of theirs was placed with. The
    // owner's own notices about those orders are the store's records, and still to be delivered to the owner.
    const theirAddresses = [...new Set([email, ...found.map((order) => order.email.toLowerCase())])];
    await tx
      .update(outboxEmails)
      .set({ to: DELETED_CUSTOMER_EMAIL, text: REMOVED_EMAIL_TEXT, html: `<p>${REMOVED_EMAIL_TEXT}</p>` })
      .where(inArray(sql`lower(${outboxEmails.to})`, theirAddresses));
    await tx.delete(addresses).where(eq(addresses.userId, account.id));
    // "This key does not work" reports are the customer's own words about their keys: they go with the account.
    await tx.delete(licenceKeyReports).where(eq(licenceKeyReports.userId, account.id));
    // Back-in-stock requests of those addresses go too (the saved cart goes with the account's row).
    await tx.delete(stockAlerts).where(inArray(stockAlerts.email, theirAddresses));
    return { orders: found.length };
  });
}

/** After a new password is chosen (changed or reset): the account is off admin:create's temporary password. */
export async function clearTemporaryPassword(db: Database, userId: string) {
  await db
    .update(user)
    .set({ mustChangePassword: false })
    .where(and(eq(user.id, userId), eq(user.mustChangePassword, true)));
}
