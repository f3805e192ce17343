import { test } from "./fixtures";
import { ownersFirstDay } from "./first-day";

test("the owner's first day: name, phone, bank digits, shipping and payments show on the next request everywhere", async ({
  page,
  browser,
  baseURL,
}) => {
  await ownersFirstDay({ page, browser, baseURL: baseURL! });
});
