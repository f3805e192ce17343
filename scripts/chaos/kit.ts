/**
 * What the chaos runs share: the orders they place (each with an idempotency key and an e-mail address of its own),
 * the production server they start, and the audit of what the database holds afterwards.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { openDatabase } from "../../db/client.server";
import { nodeFlags } from "../../server/node-flags.mjs";

/** One checkout as a client sent it, and what it learned: an order number, or an answer that was cut off. */
export type Placement = { idempotencyKey: string; form: URLSearchParams; number?: number; cut: boolean };

export type Audit = {
  found: number;
  lost: number;
  duplicated: number;
  halfWritten: number;
  keysTwice: number;
};

/** A checkout of one licence, paid by the sandbox (which delivers its key in the order's transaction). */
export function newPlacement(tag: string | number): Placement {
  const idempotencyKey = randomUUID();
  return {
    idempotencyKey,
    cut: false,
    form: new URLSearchParams({
      idempotencyKey,
      email: `chaos-${tag}-${randomUUID().slice(0, 8)}@example.com`,
      "billing.name": "Chaos Buyer",
      "billing.line1": "1 Main Street",
      "billing.city": "Springfield",
      "billing.postalCode": "12345",
      "billing.country": "US",
      shipToBilling: "on",
      paymentMethod: "sandbox",
      cart: JSON.stringify([{ groupKey: "Norton", id: "1", quantity: 1 }]),
      acceptTerms: "on",
    }),
  };
}

/**
 * Sends a checkout; a redirect to its order confirms it, and an answer that never came (or a 5xx) leaves it "cut":
 * it may or may not have been placed, and is sent again later with the same key. Resolves to the status (0: none).
 */
export async function place(
  baseURL: string,
  placement: Placement,
  { timeoutMs }: { timeoutMs?: number } = {},
): Promise<number> {
  try {
    const response = await fetch(`${baseURL}/payment`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseURL },
      body: placement.form,
      signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
    });
    await response.arrayBuffer();
    const number = /\/order\/(\d+)/.exec(response.headers.get("location") ?? "")?.[1];
    if (response.status === 302 && number) placement.number = Number(number);
    else if (response.status >= 500) placement.cut = true;
    return response.status;
  } catch {
    placement.cut = true;
    return 0;
  }
}

/**
 * What the database holds of the confirmed placements: found, lost (confirmed but missing), duplicated (two orders
 * for one e-mail address), half-written (no lines, lines that do not add up, a paid order whose keys and awaited keys
 * are not its software quantity, or no confirmation e-mail) and keys given twice.
 */
export async function auditOrders(
  database: { dataDir: string } | { url: string },
  confirmed: Placement[],
): Promise<Audit> {
  const handle = await openDatabase(database);
  try {
    const rows = async (query: ReturnType<typeof sql>) =>
      ((await handle.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
    const stored = new Map(
      (await rows(sql`select idempotency_key, number from orders`)).map((row) => [
        String(row.idempotency_key),
        Number(row.number),
      ]),
    );
    let found = 0;
    for (const placement of confirmed) if (stored.get(placement.idempotencyKey) === placement.number) found++;
    const count = async (query: ReturnType<typeof sql>) => Number((await rows(query))[0]!.n);
    return {
      found,
      lost: confirmed.length - found,
      duplicated: await count(
        sql`select coalesce(sum(n - 1), 0) as n from (select count(*) as n from orders where email like 'chaos-%' group by email having count(*) > 1) d`,
      ),
      halfWritten: await count(sql`
        select count(*) as n from orders o
        where o.email like 'chaos-%' and (
          not exists (select 1 from order_lines l where l.order_id = o.id)
          or o.subtotal_cents <> (select coalesce(sum(line_total_cents), 0) from order_lines l where l.order_id = o.id)
          or (o.payment_status = 'paid' and
            (select coalesce(sum(quantity), 0) from order_lines l where l.order_id = o.id and l.kind = 'software')
            <> (select count(*) from licence_keys k join order_lines l on l.id = k.order_line_id where l.order_id = o.id)
               + o.awaiting_keys)
          or not exists (select 1 from outbox_emails e where e.order_id = o.id and e.kind = 'order-confirmation')
        )`),
      keysTwice: await count(
        sql`select coalesce(sum(n - 1), 0) as n from (select count(*) as n from licence_keys where order_line_id is not null group by key_fingerprint having count(*) > 1) d`,
      ),
    };
  } finally {
    await handle.close();
  }
}

/** The production build on `port`, once it answers /healthz/live. */
export async function startServer(
  port: number,
  env: Record<string, string>,
  { stdout = "ignore" }: { stdout?: "ignore" | "inherit" } = {},
): Promise<ChildProcess> {
  const baseURL = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeFlags, "build/server/main.js"], {
    stdio: ["ignore", stdout, "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      PUBLIC_URL: baseURL,
      LOG_LEVEL: "fatal",
      ...env,
    },
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} while starting`);
    const status = await fetch(`${baseURL}/healthz/live`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return child;
    await sleep(50);
  }
  throw new Error(`the store did not start on ${baseURL} within 120 s`);
}

export const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve() : child.on("exit", () => resolve()),
  );

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A new, empty database `name` on the server `serverUrl` names (dropped first if it is there), and its URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
