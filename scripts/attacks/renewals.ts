/** Attacks on the renewal reminders' unsubscribe link (/reminders/unsubscribe): no sign-in, a signed token. */
import type { Attack } from "./kit";

const encode = (text: string) => Buffer.from(text).toString("base64url");

export const renewalAttacks: Attack[] = [
  {
    name: "unsubscribe someone else from renewal reminders (or break the page) with made-up, altered and huge tokens",
    async run({ send, expectStatus }) {
      const someone = encode("e:someone@example.com");
      const tokens = [
        "",
        someone,
        `${someone}.`,
        `${someone}.${"A".repeat(32)}`,
        `${encode("u:admin")}.${"A".repeat(32)}`,
        `${someone}.${"A".repeat(32)}.extra`,
        "%00%ff",
        "x".repeat(5000),
        "..",
      ];
      for (const token of tokens) {
        const path = `/reminders/unsubscribe?token=${encodeURIComponent(token)}`;
        await expectStatus(
          await send(path),
          [400, 414],
          `the unsubscribe page with the token ${token.slice(0, 40)}`,
        );
        const oneClick = await send(path, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "List-Unsubscribe=One-Click",
        });
        await expectStatus(
          oneClick,
          [400, 414],
          `a one-click unsubscribe with the token ${token.slice(0, 40)}`,
        );
      }
      const twice = await send("/reminders/unsubscribe?token=a&token=b", { method: "POST" });
      await expectStatus(twice, 400, "an unsubscribe with two tokens");
    },
  },
];
