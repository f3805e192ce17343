import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { test } from "./fixtures";

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

test("the browser bundle carries no server configuration or secrets", async ({ request, baseURL }) => {
  const port = new URL(baseURL!).port;
  const secret = JSON.parse(readFileSync(`test-results/e2e-data-${port}/secrets.json`, "utf8"))
    .authSecret as string;
  const client = files("build/client").filter((file) => /\.(js|css|html|json)$/.test(file));
  expect(client.length).toBeGreaterThan(0);
  for (const file of client) {
    const text = readFileSync(file, "utf8");
    for (const forbidden of ["AUTH_SECRET", "DATABASE_URL", "secrets.json", "pglite", secret]) {
      expect(text.includes(forbidden), `${forbidden} in ${file}`).toBe(false);
    }
  }
  expect((await (await request.get("/")).text()).includes(secret)).toBe(false);
});
