import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "~db/schema";
import { formToObject } from "~/lib/forms";
import { getSettings } from "~/modules/orders/settings.server";
import { drivers, type TestDatabase } from "../../../tests/support/database";
import { useDemoStore } from "../../../tests/support/orders";
import { holdSettingsSchema } from "./settings-schemas";
import { saveSettingsSection } from "./store-settings.server";

const parse = (form: Record<string, string>) => holdSettingsSchema.safeParse(formToObject(form));
const messages = (form: Record<string, string>) => {
  const parsed = parse(form);
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("the hold rules' form", () => {
  it("refuses holding with every rule off, and figures that are no amount or count, with what to enter", () => {
    expect(messages({ holdsEnabled: "on", holdCheckHours: "12" })).toEqual([
      "holdFirstOrderAbove: Holding is on but every rule is off: set a rule, or turn holding off",
    ]);
    expect(messages({ holdsEnabled: "on", holdFirstOrderAbove: "0.00", holdCheckHours: "12" })).toHaveLength(
      1,
    );
    expect(messages({ holdFirstOrderAbove: "12,50", holdCheckHours: "12" })).toEqual([
      "holdFirstOrderAbove: Enter the amount like 200.00, or leave it empty to hold no first order",
    ]);
    expect(messages({ holdOrdersPerHour: "-3", holdCheckHours: "12" })).toEqual([
      "holdOrdersPerHour: Enter a whole number of orders from 1 to 1,000, or leave it empty to count none",
    ]);
    expect(messages({ holdOrdersPerHour: "1001", holdCheckHours: "0" })).toEqual([
      "holdOrdersPerHour: Enter a whole number of orders from 1 to 1,000, or leave it empty to count none",
      "holdCheckHours: At least 1 hour",
    ]);
    // Holding off keeps the figures as they are, to turn back on later.
    expect(messages({ holdFirstOrderAbove: "$250", holdOrdersPerHour: "5", holdCheckHours: "24" })).toEqual(
      [],
    );
  });
});

describe.each(drivers)("saving the hold rules on %s", (driver) => {
  let database: TestDatabase;
  useDemoStore(driver, (store) => ({ database } = store));

  it("stores the amount in cents and an empty figure as off, with its audit entry", async () => {
    const save = async (form: Record<string, string>) => {
      const parsed = parse(form);
      if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
      await saveSettingsSection(database.db, "holds", parsed.data, "owner@example.com");
    };
    await save({
      holdsEnabled: "on",
      holdFirstOrderAbove: "$250.5",
      holdOrdersPerHour: "",
      holdCheckHours: "6",
    });
    expect(await getSettings(database.db)).toMatchObject({
      holdsEnabled: true,
      holdFirstOrderAboveCents: 25050,
      holdOrdersPerHour: 0,
      holdOnRadarRisk: false,
      holdCheckHours: 6,
    });
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "settings.holds"), eq(auditLog.entity, "settings")))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(entry).toMatchObject({
      actor: "owner@example.com",
      before: { holdsEnabled: false, holdFirstOrderAboveCents: 0 },
      after: { holdsEnabled: true, holdFirstOrderAboveCents: 25050 },
    });
    await save({ holdOrdersPerHour: "3", holdOnRadarRisk: "on", holdCheckHours: "12" });
    expect(await getSettings(database.db)).toMatchObject({
      holdsEnabled: false,
      holdFirstOrderAboveCents: 0,
      holdOrdersPerHour: 3,
      holdOnRadarRisk: true,
    });
  });
});
