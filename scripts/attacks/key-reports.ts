/** Attacks on the owner's queue of keys reported broken: customers answering reports, forged and repeated answers. */
import { randomInt } from "node:crypto";
import { type Attack, type AttackKit, checkoutForm } from "./kit";

const form = { "content-type": "application/x-www-form-urlencoded" };
const NORTON = "/antivirus/norton/antivirus-plus";

const post = (kit: AttackKit, path: string, cookie: string, fields: Record<string, string>) =>
  kit.send(path, { method: "POST", headers: { ...form, cookie }, body: new URLSearchParams(fields) });

/** Keys in Norton's pool, so the customer's order gets one and a replacement has one to give. */
async function topUpNorton(kit: AttackKit, admin: string) {
  const list = await (
    await kit.send(`/admin/products?q=${encodeURIComponent(NORTON)}`, { headers: { cookie: admin } })
  ).text();
  const productId = /href="\/admin\/products\/(\d+)"/.exec(list)![1]!;
  const batch = randomInt(2 ** 40)
    .toString(36)
    .toUpperCase();
  const keys = [1, 2, 3].map((n) => `REPORTS-${batch}-${n}`).join("\n");
  await kit.expectStatus(
    await post(kit, "/admin/keys", admin, { product: productId, keys }),
    200,
    "topping up keys",
  );
}

/** A customer with a key of their own, reported broken: the key's and the report's ids. */
async function reportedKey(kit: AttackKit, admin: string) {
  const customer = await kit.signUp();
  const placed = await kit.send("/payment", {
    method: "POST",
    headers: { ...form, cookie: customer.cookie },
    body: checkoutForm([{ groupKey: "Norton", id: "1", quantity: 1 }], {
      email: customer.email,
      paymentMethod: "sandbox",
    }),
  });
  await kit.expectStatus(placed, 302, "placing the customer's order");
  const number = Number(/\/order\/(\d+)/.exec(placed.headers.get("location")!)![1]);
  const licences = await (await kit.send("/user/licences", { headers: { cookie: customer.cookie } })).text();
  const keyId = /data-key-id="(\d+)"/.exec(licences)![1]!;
  const reason = "It says the key is not valid for this product.";
  const reported = await post(kit, "/user/licences", customer.cookie, { intent: "report", keyId, reason });
  await kit.expectStatus(reported, 200, "the customer's report of their own key");
  const queue = await (await kit.send("/admin/key-reports", { headers: { cookie: admin } })).text();
  const card = queue.split('data-testid="key-report"').find((part) => part.includes(`Order #${number}<`));
  const reportId = /data-report-id="(\d+)"/.exec(card ?? "")?.[1];
  if (!reportId) throw new Error(`order #${number}'s report is not in the queue`);
  return { customer, keyId, reportId, number };
}

export const keyReportAttacks: Attack[] = [
  {
    name: "a customer answers their own key report (replace, reject) with the admin's form",
    async run(kit) {
      const admin = await kit.signInAdmin();
      await topUpNorton(kit, admin);
      const { customer, keyId, reportId } = await reportedKey(kit, admin);
      const answers: Array<Record<string, string>> = [
        { intent: "replace", reportId },
        { intent: "reject", reportId, reply: "Fine." },
      ];
      for (const fields of answers) {
        const response = await post(kit, "/admin/key-reports", customer.cookie, fields);
        await kit.expectStatus(response, 403, `a customer's ${fields.intent} of their report`);
      }
      const anonymous = await kit.send("/admin/key-reports", {
        method: "POST",
        headers: form,
        body: new URLSearchParams({ intent: "replace", reportId }),
      });
      await kit.expectStatus(anonymous, [302, 403], "a visitor's replace");
      const page = await (await kit.send("/user/licences", { headers: { cookie: customer.cookie } })).text();
      kit.refused(
        page.includes(`data-key-id="${keyId}"`),
        "the customer's key was replaced by their own post",
      );
      kit.refused(
        page.includes("Reported: we are checking it"),
        "the customer's report was answered by their own post",
      );
    },
  },
  {
    name: "forged, malformed and repeated answers to key reports: refused with a 4xx, a key given once",
    async run(kit) {
      const admin = await kit.signInAdmin();
      await topUpNorton(kit, admin);
      for (const reportId of ["0", "-1", "abc", "1.5", "99999999999", "2147483000", ""]) {
        for (const intent of ["replace", "reject"]) {
          const response = await post(kit, "/admin/key-reports", admin, {
            intent,
            reportId,
            reply: "Not broken.",
          });
          await kit.expectStatus(response, [400, 404], `a ${intent} of report ${JSON.stringify(reportId)}`);
        }
      }
      const junk = await post(kit, "/admin/key-reports", admin, { intent: "delete", reportId: "1" });
      await kit.expectStatus(junk, 400, "an unknown intent");
      const { reportId } = await reportedKey(kit, admin);
      const blank = await post(kit, "/admin/key-reports", admin, {
        intent: "reject",
        reportId,
        reply: "   ",
      });
      await kit.expectStatus(blank, 400, "a rejection without a reply");
      // Two admins replacing the same report at once: one key given, the other told it was answered.
      const answers = await Promise.all(
        [1, 2].map(() => post(kit, "/admin/key-reports", admin, { intent: "replace", reportId })),
      );
      const statuses = answers.map((response) => response.status).sort();
      kit.refused(
        statuses[0] === 200 && statuses[1] === 409,
        `two replaces of one report answered ${statuses.join(", ")}`,
      );
      const late = await post(kit, "/admin/key-reports", admin, {
        intent: "reject",
        reportId,
        reply: "Too late.",
      });
      await kit.expectStatus(late, 409, "a rejection of a report already replaced");
    },
  },
];
