import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "~db/schema";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordAudit } from "~/lib/audit-log.server";
import { auditListQuery, listAudit } from "./audit.server";

describe.each(drivers)("the audit log on %s", (driver) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    // Written in this order, a second apart: the list must show the newest first.
    const base = Date.parse("2025-01-01T00:00:00Z");
    const entries = [
      { actor: "ann@example.com", action: "order.mark_paid", entity: "order", entityId: "1001" },
      { actor: "bob@example.com", action: "product.update", entity: "product", entityId: "7" },
      { actor: "ann@example.com", action: "user.set-role", entity: "user", entityId: "u_abc" },
      { actor: "bob@example.com", action: "order.refund", entity: "order", entityId: "1002" },
      { actor: "ann@example.com", action: "order.ship", entity: "order", entityId: "1001" },
      { actor: "100%_sure@example.com", action: "page.update", entity: "page", entityId: "about" },
    ];
    for (const [index, entry] of entries.entries()) {
      await database.db.insert(auditLog).values({
        ...entry,
        before: { status: "before" },
        after: { status: "after" },
        createdAt: new Date(base + index * 1000),
      });
    }
  });
  afterAll(async () => {
    await database.close();
  });

  const list = (params: Record<string, string>) => listAudit(database.db, auditListQuery.parse(params));

  it("lists entries newest first, page by page", async () => {
    const first = await list({ pageSize: "5" });
    expect(first.total).toBe(6);
    expect(first.rows.map((row) => row.action)).toEqual([
      "page.update",
      "order.ship",
      "order.refund",
      "user.set-role",
      "product.update",
    ]);
    const second = await list({ pageSize: "5", page: "2" });
    expect(second.rows.map((row) => row.action)).toEqual(["order.mark_paid"]);
    expect(first.rows[0]).toMatchObject({ before: { status: "before" }, after: { status: "after" } });
  });

  it("filters by text in the actor, action or entity, and by one record", async () => {
    expect((await list({ actor: "ANN@" })).rows.map((row) => row.action)).toEqual([
      "order.ship",
      "user.set-role",
      "order.mark_paid",
    ]);
    expect((await list({ action: "order." })).total).toBe(3);
    expect((await list({ entity: "prod" })).rows.map((row) => row.entityId)).toEqual(["7"]);
    expect((await list({ entity: "order", entityId: "1001" })).rows.map((row) => row.action)).toEqual([
      "order.ship",
      "order.mark_paid",
    ]);
    expect((await list({ actor: "bob", action: "refund" })).rows.map((row) => row.entityId)).toEqual([
      "1002",
    ]);
    // The search box looks everywhere, including an exact entity id.
    expect((await list({ q: "set-role" })).total).toBe(1);
    expect((await list({ q: "1002" })).rows.map((row) => row.action)).toEqual(["order.refund"]);
    // Wildcards typed by the admin match themselves.
    expect((await list({ actor: "100%_" })).total).toBe(1);
    expect((await list({ actor: "%" })).total).toBe(1);
    expect((await list({ q: "nothing like this" })).total).toBe(0);
  });

  it("reads nonsense parameters as the defaults", async () => {
    expect(auditListQuery.parse({ page: "-1", pageSize: "1e9", actor: "x".repeat(500) })).toMatchObject({
      page: 1,
      pageSize: 25,
      actor: "",
    });
  });

  it("records before and after as plain JSON", async () => {
    await recordAudit(database.db, {
      actor: "cat@example.com",
      action: "thing.create",
      entity: "thing",
      entityId: 5,
      after: { when: new Date("2025-02-03T04:05:06Z"), n: 1 },
    });
    const [row] = (await list({ actor: "cat@" })).rows;
    expect(row).toMatchObject({
      entityId: "5",
      before: null,
      after: { when: "2025-02-03T04:05:06.000Z", n: 1 },
    });
  });
});
