import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_SPELLINGS, routeSamples, spellingsOf } from "../support/route-spellings";
import { type E2EStore, freePort, type RawAnswer, rawRequest, startE2EStore } from "../support/store-process";

// Every route of app/routes.ts, asked for as typed, with a letter percent-encoded and in upper case, of the
// production build: React Router renders each spelling as the same route, so the store must answer each as that
// route's page, personal or public, and keep the pages of different addresses apart (ADR 0020).

/** The store's personal areas (ADR 0020): their pages are never public and never kept. */
const PERSONAL_AREAS = new Set(["admin", "user", "payment", "order", "api"]);

const cacheControl = (answer: RawAnswer) => String(answer.headers["cache-control"] ?? "");
const isPublic = (answer: RawAnswer) => /(?:^|,)\s*public\s*(?:,|$)/i.test(cacheControl(answer));
const titleOf = (answer: RawAnswer) => /<title>([^<]*)<\/title>/.exec(answer.body.toString())?.[1];
const isHtml = (answer: RawAnswer) => String(answer.headers["content-type"] ?? "").startsWith("text/html");

describe("every route under every spelling, on the production server", () => {
  let store: E2EStore;
  beforeAll(async () => {
    store = await startE2EStore(await freePort(), "pglite");
  }, 180_000);
  afterAll(async () => {
    expect(await store.stop()).toBe(0);
  });

  /** The request target exactly as written: a URL would resolve `..` and the like before it is sent. */
  const get = (target: string) => rawRequest(store.url, { target, headers: { accept: "text/html" } });

  /** What is wrong with a personal page's answer: anything a shared cache or the store's own may keep. */
  const personalProblems = async (target: string) => {
    const problems: string[] = [];
    // Twice: a page the first request left in the store's cache would be the second's hit.
    for (const round of ["first", "second"]) {
      const answer = await get(target);
      const said = `${target} (${round} request): ${answer.status}, ${cacheControl(answer)}`;
      if (answer.status >= 500) problems.push(said);
      if (isPublic(answer)) problems.push(`${said}: public`);
      if (answer.headers["x-cache"] === "hit") problems.push(`${said}: served from the page cache`);
    }
    return problems;
  };

  it("never answers a personal route as public, nor from the page cache, however it is spelled", async () => {
    const personal = routeSamples().filter((sample) => PERSONAL_AREAS.has(sample.pattern.split("/")[0]!));
    expect(personal.map((sample) => sample.pattern)).toEqual(
      expect.arrayContaining(["user/reset-password", "admin", "payment", "order/lookup", "api/cart/quote"]),
    );
    const problems: string[] = [];
    for (const sample of personal) {
      for (const spelling of spellingsOf(sample.path)) problems.push(...(await personalProblems(spelling)));
      // The token of a reset link is what a kept page would hand to the next visitor.
      if (sample.pattern === "user/reset-password") {
        for (const spelling of spellingsOf(`${sample.path}?token=sample-token`))
          problems.push(...(await personalProblems(spelling)));
      }
    }
    expect(problems).toEqual([]);
  });

  it("never keeps the personal pages at dot segments, trailing slashes, encoded letters or data requests", async () => {
    const problems: string[] = [];
    for (const { spelling } of HOSTILE_SPELLINGS) problems.push(...(await personalProblems(spelling)));
    expect(problems).toEqual([]);
  });

  it("answers every spelling of a public route with that route, and keeps each address's page apart", async () => {
    const problems: string[] = [];
    for (const sample of routeSamples()) {
      if (PERSONAL_AREAS.has(sample.pattern.split("/")[0]!)) continue;
      const typed = await get(sample.path);
      if (typed.status >= 500) problems.push(`${sample.path}: ${typed.status}`);
      for (const spelling of spellingsOf(sample.path).slice(1)) {
        for (const round of ["first", "second"]) {
          const answer = await get(spelling);
          const said = `${spelling} (${round} request): ${answer.status}`;
          if (answer.status >= 500) problems.push(said);
          // The router's data in the page names the routes it rendered.
          if (isHtml(answer) && !answer.body.includes(`"${sample.id}`))
            problems.push(`${said}: not ${sample.id}`);
        }
        // Another spelling's page, kept first, must not be what the address as typed gets.
        const again = await get(sample.path);
        if (again.status !== typed.status || titleOf(again) !== titleOf(typed))
          problems.push(`${sample.path} after ${spelling}: ${again.status} "${titleOf(again)}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("answers 400 with a message to an address that does not decode or holds a control character", async () => {
    for (const target of ["/%E0%A4%A", "/%00", "/user/%", "/%C0%AF/admin", "/about%0A", "/%u0075ser"]) {
      const answer = await get(target);
      expect(answer.status, target).toBe(400);
      expect(isPublic(answer), target).toBe(false);
      expect(answer.body.toString(), target).toMatch(/cannot be read/);
    }
    const api = await get("/api/cart/%E0");
    expect(api.status).toBe(400);
    expect(JSON.parse(api.body.toString())).toEqual({ error: expect.stringMatching(/cannot be read/) });
  });
});
