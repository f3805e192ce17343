import { expect } from "@playwright/test";
import { test } from "./fixtures";
import { ownersFirstDay } from "./first-day";

// Two server processes on one PostgreSQL database: a setting saved through one is what the other shows next.
test.use({ storeProcesses: 2 });

test("the owner's first day on two processes sharing PostgreSQL: every setting shows on the next request, whichever process answers", async ({
  page,
  browser,
  baseURL,
  store,
}) => {
  // Every settings section saved and read back through both processes: about 50 s on a slow machine.
  test.setTimeout(120_000);
  expect(store.output()).toContain("database: PostgreSQL, 2 processes");
  await ownersFirstDay({ page, browser, baseURL: baseURL! });
});
