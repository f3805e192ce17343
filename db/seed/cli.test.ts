import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../client.server";
import { products } from "../schema";

const dataDir = mkdtempSync(path.join(tmpdir(), "storefront-seed-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function seed(...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", "db/seed/cli.ts", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
    timeout: 120_000,
  });
}

async function productCount() {
  const database = await openDatabase({ dataDir });
  try {
    const [row] = await database.db.select({ n: count() }).from(products);
    return row!.n;
  } finally {
    await database.close();
  }
}

describe("npm run db:seed", () => {
  it("imports the demo store into the embedded database, and again without duplicates", async () => {
    const first = seed();
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("23 brand groups, 89 products");
    const again = seed();
    expect(again.status).toBe(0);
    expect(await productCount()).toBe(89);
  });

  it("reports every invalid field of a user's file by its path and imports nothing", async () => {
    const file = path.join(dataDir, "my-catalogue.json");
    writeFileSync(
      file,
      JSON.stringify({
        groups: [
          {
            key: "Acme",
            name: "Acme",
            section: "antivirus",
            officialWebsite: "not a url",
            content: "McAfee",
            products: [
              {
                id: "1",
                name: "Acme Shield",
                desc: "d",
                price: "9.9",
                originalPrice: "19.99",
                discountedPrice: "9.9",
                img: "/x.png",
                route: "/antivirus/acme/shield",
                specifications: {},
              },
            ],
          },
        ],
      }),
    );
    const result = seed("--file", file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("is not a valid catalogue file");
    expect(result.stderr).toContain("groups[0].officialWebsite: must be a URL");
    expect(result.stderr).toContain(
      "groups[0].products[0].price: must be a decimal string with two places, like 49.99",
    );
    expect(result.stderr).toContain("groups[0].products[0].discountedPrice:");
    expect(await productCount()).toBe(89);
  });

  it("refuses to open a DATA_DIR another process holds, leaving the data intact", async () => {
    const holder = await openDatabase({ dataDir });
    try {
      const result = seed();
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("is in use by another process");
    } finally {
      await holder.close();
    }
    expect(await productCount()).toBe(89);
  });
});
