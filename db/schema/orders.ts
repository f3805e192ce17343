import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgSequence,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { jsonb } from "./json";
import { products, productVariants } from "./catalogue";
import { promotions } from "./pricing";

/** "held": paid, but a hold rule matched (ADR 0035): nothing is delivered until the store approves or rejects it. */
export const ORDER_STATUSES = [
  "pending_payment",
  "paid",
  "held",
  "fulfilled",
  "cancelled",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_STATUSES = ["pending", "paid", "failed", "partially_refunded", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** "none": the order came to 0.00 (a free product, a 100% code) and was complete without a payment. */
export const PAYMENT_METHODS = ["bank-transfer", "sandbox", "stripe", "none"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The ways to pay a checkout offers for an order with something to pay. */
export type PaymentChoice = Exclude<PaymentMethod, "none">;
/** Which hold rule put a paid order on hold (ADR 0035). */
export type HoldRule =
  | "first-order"
  | "email-rate"
  | "client-rate"
  | "card-rate"
  | "radar-risk"
  | "radar-review";
/** One reason an order is held: the rule, what the owner reads, and the figures it went by. */
export type HoldReason = { rule: HoldRule; message: string; figures: Record<string, number | string> };
export type HoldDecision = "approved" | "rejected";

/** Software is delivered as licence keys; printers and routers are shipped. */
export type LineKind = "software" | "physical";

export type Address = {
  name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  phone: string;
};

/** Human order numbers, in sequence; they start at 1001 so the first order does not look like the only one. */
export const orderNumberSeq = pgSequence("order_number_seq", { startWith: 1001 });

export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    number: integer("number")
      .notNull()
      .unique()
      .default(sql`nextval('order_number_seq')`),
    /** What the checkout page sent: a retry or double click with the same key gets the same order. */
    idempotencyKey: text("idempotency_key").notNull().unique(),
    userId: text("user_id"),
    email: text("email").notNull(),
    status: text("status").$type<OrderStatus>().notNull(),
    paymentStatus: text("payment_status").$type<PaymentStatus>().notNull().default("pending"),
    paymentMethod: text("payment_method").$type<PaymentMethod>().notNull(),
    /** The payment provider's reference (a Stripe checkout session id, say). */
    paymentReference: text("payment_reference"),
    subtotalCents: integer("subtotal_cents").notNull(),
    shippingCents: integer("shipping_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    /**
     * What every amount of the order is in (ADR 0036): 'USD' or 'INR', the shopper's choice when it was placed,
     * never changed after.
     */
    currency: text("currency").$type<"USD" | "INR">().notNull().default("USD"),
    billingAddress: jsonb("billing_address").$type<Address>().notNull(),
    shippingAddress: jsonb("shipping_address").$type<Address>(),
    /** Set while paid software lines wait for licence keys the pool does not have yet. */
    awaitingKeys: integer("awaiting_keys").notNull().default(0),
    trackingNumber: text("tracking_number"),
    /** What has been given back so far, in cents: never more than the total (a check below). */
    refundedCents: integer("refunded_cents").notNull().default(0),
    /**
     * Discount and tax (migration 0016). discountCents is everything the code took off, shippingDiscountCents the
     * part of it taken off shipping (shippingCents is shipping before the discount). taxCents is the tax charged,
     * shippingTaxCents its part on shipping; with pricesIncludeTax the tax is inside the prices and not added.
     */
    promotionId: integer("promotion_id").references(() => promotions.id, { onDelete: "set null" }),
    /** The code as the order used it, kept if the promotion is deleted later ('' for none). */
    discountCode: text("discount_code").notNull().default(""),
    discountCents: integer("discount_cents").notNull().default(0),
    shippingDiscountCents: integer("shipping_discount_cents").notNull().default(0),
    taxCents: integer("tax_cents").notNull().default(0),
    shippingTaxCents: integer("shipping_tax_cents").notNull().default(0),
    pricesIncludeTax: boolean("prices_include_tax").notNull().default(false),
    /** The tax per rate, as charged: what the invoice's totals per rate print. */
    taxBreakdown: jsonb("tax_breakdown").$type<TaxAmount[]>().notNull().default([]),
    /** A business buyer's tax ID (VAT, GSTIN, EIN), printed on the invoice ('' for none). */
    buyerTaxId: text("buyer_tax_id").notNull().default(""),
    /**
     * Placed while the store took test payments (the sandbox setting on, or paid by the sandbox): no money moved, so
     * the dashboard's revenue leaves it out. Fixed when the order is placed; turning the sandbox off later changes
     * nothing.
     */
    isTest: boolean("is_test").notNull().default(false),
    /**
     * Why a cancelled order was cancelled, as the owner and the buyer read it: "Cancelled by the store", or
     * "Expired: not paid within 72 hours" (empty for orders cancelled before migration 0023).
     */
    cancelReason: text("cancel_reason").notNull().default(""),
    /** A note from the store the customer reads on their order page (empty: none). */
    customerNote: text("customer_note").notNull().default(""),
    /** Which secret link opens the order for its buyer: raised when a new link is sent, so older links stop working. */
    accessVersion: integer("access_version").notNull().default(0),
    /**
     * Hold rules (ADR 0035). clientRef: a keyed hash of the address the order was placed from (never the address
     * itself), counted by the per-client rule; cardFingerprint: Stripe's fingerprint of the card that paid.
     * holdReasons: why the order was held (empty: never held); holdDecision: what the store decided, once.
     */
    clientRef: text("client_ref"),
    cardFingerprint: text("card_fingerprint"),
    holdReasons: jsonb("hold_reasons").$type<HoldReason[]>().notNull().default([]),
    holdDecision: text("hold_decision").$type<HoldDecision>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (table) => [
    index("orders_email_idx").on(sql`lower(${table.email})`),
    index("orders_user_idx").on(table.userId),
    index("orders_status_idx").on(table.status, table.createdAt),
    index("orders_created_idx").on(table.createdAt),
    // The admin's orders search (an e-mail prefix, in any case).
    index("orders_email_trgm_idx").using("gin", table.email.op("gin_trgm_ops")),
    // The per-client and per-card hold rules count an hour of orders.
    index("orders_client_ref_idx")
      .on(table.clientRef, table.createdAt)
      .where(sql`${table.clientRef} is not null`),
    index("orders_card_fingerprint_idx")
      .on(table.cardFingerprint, table.createdAt)
      .where(sql`${table.cardFingerprint} is not null`),
    check(
      "orders_status_check",
      sql`${table.status} in ('pending_payment', 'paid', 'held', 'fulfilled', 'cancelled', 'refunded')`,
    ),
    check(
      "orders_hold_check",
      sql`(${table.holdDecision} is null or ${table.holdDecision} in ('approved', 'rejected'))
        and (${table.status} <> 'held' or (${table.holdDecision} is null and jsonb_array_length(${table.holdReasons}) > 0))`,
    ),
    check("orders_currency_check", sql`${table.currency} in ('USD', 'INR')`),
    check(
      "orders_refunded_check",
      sql`${table.refundedCents} >= 0 and ${table.refundedCents} <= ${table.totalCents}`,
    ),
    check(
      "orders_totals_check",
      sql`${table.totalCents} = ${table.subtotalCents} + ${table.shippingCents} - ${table.discountCents}
        + case when ${table.pricesIncludeTax} then 0 else ${table.taxCents} end
        and ${table.subtotalCents} >= 0 and ${table.shippingCents} >= 0 and ${table.taxCents} >= 0
        and ${table.discountCents} >= 0 and ${table.discountCents} <= ${table.subtotalCents} + ${table.shippingCents}
        and ${table.shippingDiscountCents} between 0 and least(${table.discountCents}, ${table.shippingCents})
        and ${table.shippingTaxCents} between 0 and ${table.taxCents}`,
    ),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    groupKey: text("group_key").notNull(),
    externalId: text("external_id").notNull(),
    /** Snapshots: what the buyer saw and paid, whatever happens to the product later. */
    name: text("name").notNull(),
    /** The variant bought, and its SKU, label and term as they were (all null for a product sold without variants). */
    variantId: integer("variant_id").references(() => productVariants.id, { onDelete: "set null" }),
    variantSku: text("variant_sku"),
    variantLabel: text("variant_label"),
    /** Months each key of the line lasts from the payment date; null: perpetual (or no variant). */
    termMonths: integer("term_months"),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    lineTotalCents: integer("line_total_cents").notNull(),
    /** The discount code's share of this line (cents off lineTotalCents). */
    discountCents: integer("discount_cents").notNull().default(0),
    /** The tax on this line: every tax charged, its total, and the sum of their rates. */
    taxes: jsonb("taxes").$type<TaxAmount[]>().notNull().default([]),
    taxCents: integer("tax_cents").notNull().default(0),
    taxRateBasisPoints: integer("tax_rate_basis_points").notNull().default(0),
    kind: text("kind").$type<LineKind>().notNull(),
    /** Units of a counted printer or router taken from its stock when the order was placed; given back on cancel. */
    stockReserved: integer("stock_reserved").notNull().default(0),
    /** The shipment that carried a physical line (null: awaiting shipment). */
    shipmentId: integer("shipment_id").references(() => orderShipments.id, { onDelete: "set null" }),
    /** Set when the line was refunded: its keys are revoked, it is no longer shipped. */
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
  },
  (table) => [
    index("order_lines_order_idx").on(table.orderId),
    check("order_lines_quantity_check", sql`${table.quantity} between 1 and 99`),
    check(
      "order_lines_variant_check",
      sql`(${table.variantSku} is null) = (${table.variantLabel} is null)
        and (${table.termMonths} is null or (${table.variantSku} is not null and ${table.termMonths} > 0))`,
    ),
    check(
      "order_lines_total_check",
      sql`${table.lineTotalCents} = ${table.unitPriceCents} * ${table.quantity}`,
    ),
    check(
      "order_lines_discount_tax_check",
      sql`${table.discountCents} between 0 and ${table.lineTotalCents} and ${table.taxCents} >= 0`,
    ),
  ],
);

/** A parcel sent for some physical lines of an order: carrier, tracking number and the link to follow it. */
export const orderShipments = pgTable(
  "order_shipments",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    carrier: text("carrier").notNull(),
    trackingNumber: text("tracking_number").notNull(),
    trackingUrl: text("tracking_url"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_shipments_order_idx").on(table.orderId)],
);

/** Money given back for an order: full, a line, or an amount. The sum is kept on the order (refunded_cents). */
export const orderRefunds = pgTable(
  "order_refunds",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    /** "full", "line" or "amount". */
    kind: text("kind").notNull(),
    lineIds: jsonb("line_ids").$type<number[]>().notNull().default([]),
    reason: text("reason").notNull().default(""),
    /** The provider's refund id (Stripe's re_...), null when the money goes back by hand or was a test payment. */
    providerReference: text("provider_reference"),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("order_refunds_order_idx").on(table.orderId),
    check("order_refunds_amount_check", sql`${table.amountCents} > 0`),
  ],
);

/** The store's own notes on an order: admins only, never shown to the customer. */
export const orderNotes = pgTable(
  "order_notes",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_notes_order_idx").on(table.orderId, table.createdAt)],
);

/** Every change to an order: what, by whom, when. */
export const orderEvents = pgTable(
  "order_events",
  {
    id: serial("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** "customer", "system", "stripe" or "admin:<email>". */
    actor: text("actor").notNull(),
    message: text("message").notNull().default(""),
    data: jsonb("data").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_events_order_idx").on(table.orderId, table.createdAt)],
);

export const licenceKeys = pgTable(
  "licence_keys",
  {
    id: serial("id").primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    /** The variant whose pool it is in; null: the product's own pool (a product sold without variants). */
    variantId: integer("variant_id"),
    /** AES-256-GCM: iv, tag and ciphertext, base64url, joined by dots. */
    keyCiphertext: text("key_ciphertext").notNull(),
    /** HMAC of the key, so the same key cannot be imported twice. */
    keyFingerprint: text("key_fingerprint").notNull(),
    /** The last characters, for lists that must not show keys in full. */
    keyHint: text("key_hint").notNull(),
    orderLineId: integer("order_line_id").references(() => orderLines.id, { onDelete: "set null" }),
    assignedAt: timestamp("assigned_at", { withTimezone: true }),
    /** Set when the line it was sold with was refunded: kept against the order, never sold again, not shown. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** When it stops working: its order's payment date plus its line's term, set as it is delivered; null: never. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Who the store bought it from, what it paid for it and the purchase it came in, as the owner imported them. */
    supplier: text("supplier"),
    /** Null: the owner did not say (a margin is then not known), never taken as zero. */
    costCents: integer("cost_cents"),
    batch: text("batch"),
    /**
     * The key given in its place after the customer reported it broken (it is revoked then): null for a key refunded
     * or never replaced. Tells a replaced key from a refunded one in the admin's lists and the audit trail.
     */
    replacedByKeyId: integer("replaced_by_key_id").references((): AnyPgColumn => licenceKeys.id, {
      onDelete: "set null",
    }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Only a revoked key has been replaced; a key never replaces itself.
    check(
      "licence_keys_replaced_check",
      sql`${table.replacedByKeyId} is null or (${table.revokedAt} is not null and ${table.replacedByKeyId} <> ${table.id})`,
    ),
    // A key's variant belongs to its product; a variant with keys cannot be deleted (it has sold or will sell them).
    foreignKey({
      name: "licence_keys_variant_fk",
      columns: [table.variantId, table.productId],
      foreignColumns: [productVariants.id, productVariants.productId],
    }).onDelete("restrict"),
    uniqueIndex("licence_keys_fingerprint_idx").on(table.keyFingerprint),
    index("licence_keys_available_idx")
      .on(table.productId, table.id)
      .where(sql`${table.orderLineId} is null`),
    index("licence_keys_line_idx").on(table.orderLineId),
    // The renewal reminders' daily look for keys of customers expiring soon.
    index("licence_keys_expires_idx")
      .on(table.expiresAt)
      .where(
        sql`${table.orderLineId} is not null and ${table.revokedAt} is null and ${table.expiresAt} is not null`,
      ),
    index("licence_keys_variant_available_idx")
      .on(table.variantId, table.id)
      .where(sql`${table.orderLineId} is null and ${table.variantId} is not null`),
    check("licence_keys_cost_check", sql`${table.costCents} between 0 and 100000000`),
    check("licence_keys_supplier_check", sql`length(${table.supplier}) between 1 and 100`),
    check("licence_keys_batch_check", sql`length(${table.batch}) between 1 and 100`),
  ],
);

export const LICENCE_REPORT_STATUSES = ["open", "replaced", "rejected", "refunded"] as const;
export type LicenceReportStatus = (typeof LICENCE_REPORT_STATUSES)[number];

/**
 * A customer's "This key does not work": the key, who said so and why. Open until the store answers it (a
 * replacement key, or a refusal) or refunds the key's line, which closes it (`refunded`); a key has at most one open
 * report, so asking twice changes nothing.
 */
export const licenceKeyReports = pgTable(
  "licence_key_reports",
  {
    id: serial("id").primaryKey(),
    licenceKeyId: integer("licence_key_id")
      .notNull()
      .references(() => licenceKeys.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    reason: text("reason").notNull(),
    status: text("status").$type<LicenceReportStatus>().notNull().default("open"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /** "admin:<email>" once answered. */
    resolvedBy: text("resolved_by"),
    /** The store's answer the customer reads on their licences page and in the e-mail (a refusal must have one). */
    reply: text("reply"),
    /** The key given in place of the reported one (status replaced). */
    replacementKeyId: integer("replacement_key_id").references(() => licenceKeys.id, {
      onDelete: "set null",
    }),
  },
  (table) => [
    check(
      "licence_key_reports_resolved_check",
      sql`(${table.status} = 'open') = (${table.resolvedAt} is null) and (${table.status} <> 'rejected' or length(btrim(${table.reply})) between 2 and 1000)`,
    ),
    uniqueIndex("licence_key_reports_open_idx")
      .on(table.licenceKeyId)
      .where(sql`${table.status} = 'open'`),
    index("licence_key_reports_status_idx").on(table.status, table.createdAt),
    check(
      "licence_key_reports_status_check",
      sql`${table.status} in ('open', 'replaced', 'rejected', 'refunded')`,
    ),
    check("licence_key_reports_reason_check", sql`length(btrim(${table.reason})) between 10 and 500`),
  ],
);

/** An attachment of an outbox e-mail: what to make, not the bytes (the e-mail row stays small). */
export type OutboxAttachment = { kind: "invoice"; invoiceId: number; filename: string };

export const OUTBOX_STATUSES = ["pending", "sent", "stored", "failed"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * Every e-mail the store sends, written in the same transaction as the change it reports and sent afterwards.
 * Without SMTP, messages stay here ("stored") for the admin to read.
 */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    to: text("to").notNull(),
    /** Where a reply goes (owner notifications of a customer's message: the customer). */
    replyTo: text("reply_to"),
    /** Documents attached when it is sent, made at that moment from their stored snapshot (an invoice's PDF). */
    attachments: jsonb("attachments").$type<OutboxAttachment[]>().notNull().default([]),
    /** Extra headers sent with it (a reminder's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    status: text("status").$type<OutboxStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (table) => [
    index("outbox_pending_idx")
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index("outbox_order_idx").on(table.orderId),
  ],
);

/** Stripe events already handled: a replayed event changes nothing. */
export const paymentEvents = pgTable("payment_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Store settings the admin can change (shipping rates, payment switches). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type Order = typeof orders.$inferSelect;
export type OrderLine = typeof orderLines.$inferSelect;
export type OrderShipment = typeof orderShipments.$inferSelect;

/** Invoices and credit notes: each kind numbered by its own gap-free counter (document_counters). */
export const INVOICE_KINDS = ["invoice", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** One tax as an order, a line or an invoice carries it: its name, rate, what it was charged on and how much. */
export type TaxAmount = { name: string; rateBasisPoints: number; taxableCents: number; taxCents: number };

/**
 * A paid order's invoice, or a refund's credit note (which names the invoice it corrects). The snapshot holds every
 * figure and name printed, as they were when it was issued: the PDF is made from it, so a later change to the store
 * or the order never changes an issued document.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").$type<InvoiceKind>().notNull(),
    /** From the kind's counter: 1, 2, 3... with no gap and no repeat. */
    number: integer("number").notNull(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "restrict" }),
    /** A credit note: the refund it documents and the invoice it corrects. */
    refundId: integer("refund_id").references(() => orderRefunds.id, { onDelete: "restrict" }),
    creditForInvoiceId: integer("credit_for_invoice_id"),
    totalCents: integer("total_cents").notNull(),
    taxCents: integer("tax_cents").notNull().default(0),
    snapshot: jsonb("snapshot").$type<Record<string, unknown>>().notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("invoices_kind_number_idx").on(table.kind, table.number),
    // One invoice per order; one credit note per refund.
    uniqueIndex("invoices_order_invoice_idx")
      .on(table.orderId)
      .where(sql`${table.kind} = 'invoice'`),
    uniqueIndex("invoices_refund_idx").on(table.refundId),
    index("invoices_issued_idx").on(table.issuedAt),
    check("invoices_kind_check", sql`${table.kind} in ('invoice', 'credit_note')`),
    check(
      "invoices_credit_check",
      sql`(${table.kind} = 'invoice' and ${table.refundId} is null and ${table.creditForInvoiceId} is null)
        or (${table.kind} = 'credit_note' and ${table.refundId} is not null and ${table.creditForInvoiceId} is not null)`,
    ),
  ],
);

/**
 * The last number given per document kind. Taken with `update ... set last_number = last_number + 1 returning` in
 * the transaction that issues the document: the row lock orders concurrent issuers, and a rollback gives the number
 * back, so numbers have no gaps (a sequence would leave one at every rollback).
 */
export const documentCounters = pgTable("document_counters", {
  kind: text("kind").primaryKey(),
  lastNumber: integer("last_number").notNull().default(0),
});

export type Invoice = typeof invoices.$inferSelect;
