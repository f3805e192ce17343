/** Attacks on the store's reliability machinery: health checks, error answers of the APIs (issue 11). */
import { type Attack } from "./kit";

export const reliabilityAttacks: Attack[] = [
  {
    name: "read the health checks for paths, stack traces or secrets, and post to them",
    async run({ send, refused, expectStatus }) {
      for (const path of ["/healthz", "/healthz/live", "/healthz?verbose=1", "/healthz/live/../"]) {
        const response = await send(path);
        const text = await response.text();
        refused(
          !/\/(work|home|tmp|var|srv|root|data)\//.test(text),
          `${path} shows a path of the machine: ${text}`,
        );
        refused(!/\n\s+at /.test(text), `${path} shows a stack trace`);
        refused(!/secret|password|postgres:\/\//i.test(text), `${path} shows a secret: ${text}`);
      }
      for (const method of ["POST", "DELETE"]) {
        const response = await send("/healthz", {
          method,
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        refused(response.status < 500, `${method} /healthz failed with ${response.status}`);
      }
      const live = await send("/healthz/live");
      await expectStatus(live, 200, "the liveness check");
    },
  },
  {
    name: "hammer the readiness check (which writes in a rolled-back transaction) with 40 requests at once",
    async run({ send, refused }) {
      const answers = await Promise.all(Array.from({ length: 40 }, () => send("/healthz")));
      const statuses = answers.map((response) => response.status);
      refused(
        statuses.every((status) => status === 200),
        `concurrent readiness checks answered ${[...new Set(statuses)].join(", ")}`,
      );
      // Nothing of the probes is left behind: the store still serves.
      refused((await send("/")).status === 200, "the home page after the readiness storm");
    },
  },
  {
    name: "make a JSON API answer something other than JSON",
    async run({ send, refused }) {
      for (const [body, type] of [
        ["not json", "application/json"],
        ['{"lines": "x"}', "application/json"],
        ['{"lines": [{"groupKey": {"$ne": 1}, "id": [], "quantity": 1e308}]}', "application/json"],
        ["lines=1", "application/x-www-form-urlencoded"],
        ["", "text/plain"],
      ] as const) {
        const response = await send("/api/cart/quote", {
          method: "POST",
          headers: { "content-type": type },
          body,
        });
        const contentType = response.headers.get("content-type") ?? "";
        refused(
          contentType.startsWith("application/json"),
          `the cart quote answered ${contentType} to ${body}`,
        );
        refused(response.status < 500, `the cart quote failed with ${response.status} on ${body}`);
        await response.arrayBuffer();
      }
    },
  },
];
