import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { companyDetails } from "~db/schema";
import { importSeed, readDemoSeed } from "~/modules/seed/import.server";
import { createTestDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import { recordingLogger } from "../../../tests/support/logger";
import { getCompanyPhone } from "./company.server";

describe.each(drivers)("the company phone on %s", (driver) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(driver);
    await importSeed(database.db, { company: readDemoSeed().company });
  });
  afterEach(async () => {
    await database.close();
  });

  it("reads the local and the international format from the company-details record", async () => {
    const { logger, lines } = recordingLogger();
    expect(await getCompanyPhone({ db: database.db, logger })).toEqual({
      phone: "(212) 555-0100",
      phonecall: "+12125550100",
    });
    expect(lines()).toEqual([]);
  });

  it("leaves both empty and logs 'No such document!' when the record is missing", async () => {
    await database.db.delete(companyDetails);
    const { logger, lines } = recordingLogger();
    expect(await getCompanyPhone({ db: database.db, logger })).toEqual({ phone: "", phonecall: "" });
    expect(lines().map((line) => line.msg)).toEqual(["No such document!"]);
  });

  it("leaves both empty and logs 'Error fetching TFN' when the read fails", async () => {
    await database.db.execute(sql`alter table company_details rename to company_details_gone`);
    const { logger, lines } = recordingLogger();
    expect(await getCompanyPhone({ db: database.db, logger })).toEqual({ phone: "", phonecall: "" });
    expect(lines().map((line) => line.msg)).toEqual(["Error fetching TFN"]);
    expect(lines()[0]!.level).toBe(50); // error
  });
});
