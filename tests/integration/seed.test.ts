import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { keyCipher } from "~/lib/key-cipher.server";
import { availablePaymentMethods, placeOrder } from "~/modules/orders/orders.server";
import { runCommand } from "../support/command";
import { checkout, ordersTestContext, testEnv } from "../support/orders";
import { openDatabase } from "~db/client.server";
import { products } from "~db/schema";
import { seedCommand } from "../../scripts/seed-command";

const dataDir = mkdtempSync(path.join(tmpdir(), "storefront-seed-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function seed(...args: string[]) {
  return seedInto(dataDir, ...args);
}

/** The command in this process (scripts/seed.ts passes it the process's arguments, variables and console). */
function seedInto(dir: string, ...args: string[]) {
  return runCommand(seedCommand, args, { ...process.env, DATA_DIR: dir, DATABASE_URL: "" });
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
    const first = await seed();
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("23 brand groups, 89 products");
    const again = await seed();
    expect(again.status).toBe(0);
    expect(await productCount()).toBe(89);
    // Two processes, each loading the command and migrating the embedded database: on a busy two-core machine that
    // alone can pass the suite's 60 s.
  }, 180_000);

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
    const result = await seed("--file", file);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("is not a valid catalogue file");
    expect(result.stderr).toContain("groups[0].officialWebsite: must be a URL");
    expect(result.stderr).toContain(
      "groups[0].products[0].price: must be a decimal string with two places, like 49.99",
    );
    expect(result.stderr).toContain("groups[0].products[0].discountedPrice:");
    expect(await productCount()).toBe(89);
  });

  it("turns the sandbox off when a store imports a catalogue of its own, unless the file asks for it", async () => {
    const storeDir = mkdtempSync(path.join(tmpdir(), "storefront-own-"));
    const own = (settings?: object) => {
      const file = path.join(storeDir, "own.json");
      const price = "9.99";
      writeFileSync(
        file,
        JSON.stringify({
          groups: [
            {
              key: "Acme",
              name: "Acme",
              section: "antivirus",
              officialWebsite: "https://acme.example.com",
              content: "McAfee",
              products: [
                {
                  id: "1",
                  name: "Acme Shield",
                  desc: "Protects one computer for a year.",
                  price,
                  originalPrice: price,
                  discountedPrice: price,
                  img: "/placeholder/product/acme.svg",
                  route: "/antivirus/acme/shield",
                  specifications: { Platform: "Windows" },
                },
              ],
            },
          ],
          ...(settings ? { settings } : {}),
        }),
      );
      return file;
    };
    const production = testEnv({ NODE_ENV: "production" });
    const withStore = async <T>(work: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<T>) => {
      const database = await openDatabase({ dataDir: storeDir });
      try {
        return await work(database.db);
      } finally {
        await database.close();
      }
    };
    const methods = () => withStore((db) => availablePaymentMethods({ db, env: production }));
    try {
      // The demo store asks for the sandbox in its file.
      expect((await seedInto(storeDir)).status).toBe(0);
      expect(await methods()).toContain("sandbox");

      // A file of one's own without a settings block: no free licence keys in production.
      const imported = await seedInto(storeDir, "--file", own());
      expect(imported.stderr).toBe("");
      expect(await methods()).toEqual(["bank-transfer"]);
      const refused = await withStore((db) =>
        placeOrder(
          ordersTestContext(db, keyCipher("k".repeat(43)), production),
          checkout({ paymentMethod: "sandbox", cart: [{ groupKey: "Acme", id: "1", quantity: 1 }] }),
        ),
      );
      expect(refused).toEqual({
        ok: false,
        errors: { paymentMethod: "That payment method is not available: choose another one" },
      });

      // The owner's file may ask for it explicitly.
      expect((await seedInto(storeDir, "--file", own({ sandboxPayments: true }))).status).toBe(0);
      expect(await methods()).toContain("sandbox");
    } finally {
      rmSync(storeDir, { recursive: true, force: true });
    }
  }, 240_000); // three imports, each opening the database: slow on a busy machine

  // The one run of the command as a process of its own, as an owner types it: a lock that this process holds is
  // another process's to it.
  it("refuses to open a DATA_DIR another process holds, leaving the data intact", async () => {
    const holder = await openDatabase({ dataDir });
    try {
      const result = spawnSync("npm", ["run", "db:seed"], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("is in use by another process");
    } finally {
      await holder.close();
    }
    expect(await productCount()).toBe(89);
  });
});
