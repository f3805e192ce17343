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
  expect(store.output()).toContain("database: PostgreSQL, 2 processes");
  await ownersFirstDay({ page, browser, baseURL: baseURL! });
});
