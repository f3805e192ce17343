import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, banners } from "~db/schema";
import { getActiveBanners } from "~/modules/content/home.server";
import { createDemoDatabase, drivers, type TestDatabase } from "../../../tests/support/database";
import {
  bannerListQuery,
  createBanner,
  deleteBanner,
  getBanner,
  listBanners,
  moveBanner,
  setBannerActive,
  updateBanner,
} from "./banners.server";
import { bannerFormSchema } from "./content-schemas";

const ADMIN = "owner@example.com";
const form = (overrides: Record<string, string> = {}) =>
  bannerFormSchema.parse({
    title: "Routers for Every Home",
    subtitle: "Wi-Fi 6 and mesh systems.",
    image: "/placeholder/banner/home-3.svg",
    alt: "A router on a shelf",
    link: "/router",
    position: "",
    active: "on",
    ...overrides,
  });

describe.each(drivers)("the admin's home page banners on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    ({ database } = await createDemoDatabase(driver));
  });
  afterAll(async () => {
    await database.close();
  });

  const order = async () =>
    (await database.db.select().from(banners).orderBy(asc(banners.position), asc(banners.id))).map(
      (banner) => banner.title,
    );
  const actions = async (id: number) =>
    (
      await database.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.entity, "banner"), eq(auditLog.entityId, String(id))))
        .orderBy(auditLog.id)
    ).map((entry) => entry.action);

  it("adds a banner last unless given a place, and the home page shows it", async () => {
    const seeded = await order();
    const created = await createBanner(database.db, form(), ADMIN);
    if (!created.ok) throw new Error("not created");
    expect(await order()).toEqual([...seeded, "Routers for Every Home"]);
    expect((await getActiveBanners({ db: database.db })).map((banner) => banner.title)).toContain(
      "Routers for Every Home",
    );
    const first = await createBanner(database.db, form({ title: "First!", position: "0" }), ADMIN);
    expect(first.ok).toBe(true);
    expect((await order())[0]).toBe(seeded[0]); // position 0 ties with the first seeded; the older id wins
    expect(await actions(created.id)).toEqual(["banner.create"]);
  });

  it("moves banners up and down, renumbering ties, and keeps the ends in place", async () => {
    const [firstBanner] = await database.db.select().from(banners).where(eq(banners.title, "First!"));
    expect(await moveBanner(database.db, firstBanner!.id, "up", ADMIN)).toBe(true);
    expect((await order())[0]).toBe("First!");
    const positions = (
      await database.db.select({ position: banners.position }).from(banners).orderBy(asc(banners.position))
    ).map((row) => row.position);
    expect(new Set(positions).size).toBe(positions.length);
    expect(await moveBanner(database.db, firstBanner!.id, "up", ADMIN)).toBe(true);
    expect((await order())[0]).toBe("First!");
    expect(await moveBanner(database.db, firstBanner!.id, "down", ADMIN)).toBe(true);
    expect((await order())[1]).toBe("First!");
    expect(await moveBanner(database.db, 987_654, "down", ADMIN)).toBe(false);
    // Moving the first banner up changed nothing and recorded nothing.
    expect(await actions(firstBanner!.id)).toEqual(["banner.create", "banner.move_up", "banner.move_down"]);
  });

  it("edits, hides and shows a banner; a hidden banner leaves the home page", async () => {
    const [banner] = await database.db
      .select()
      .from(banners)
      .where(eq(banners.title, "Routers for Every Home"));
    const place = banner!.position;
    expect(await updateBanner(database.db, banner!.id, form({ title: "Mesh Wi-Fi" }), ADMIN)).toEqual({
      ok: true,
      id: banner!.id,
    });
    expect(await getBanner(database.db, banner!.id)).toMatchObject({ title: "Mesh Wi-Fi", position: place });
    expect(await setBannerActive(database.db, banner!.id, false, ADMIN)).toBe(true);
    expect((await getActiveBanners({ db: database.db })).map((row) => row.title)).not.toContain("Mesh Wi-Fi");
    expect(
      await updateBanner(database.db, banner!.id, form({ title: "Mesh Wi-Fi", active: "" }), ADMIN),
    ).toMatchObject({ ok: true });
    expect(await setBannerActive(database.db, banner!.id, true, ADMIN)).toBe(true);
    expect((await getActiveBanners({ db: database.db })).map((row) => row.title)).toContain("Mesh Wi-Fi");
    expect(await updateBanner(database.db, 987_654, form(), ADMIN)).toEqual({
      ok: false,
      reason: "not-found",
    });
    expect(await setBannerActive(database.db, 987_654, true, ADMIN)).toBe(false);
    expect(await actions(banner!.id)).toEqual([
      "banner.create",
      "banner.update",
      "banner.deactivate",
      "banner.update",
      "banner.activate",
    ]);
  });

  it("lists banners in order, searched by title or link, and deletes them", async () => {
    const page = await listBanners(database.db, bannerListQuery.parse({ q: "mesh" }));
    expect(page.rows.map((row) => row.title)).toEqual(["Mesh Wi-Fi"]);
    const all = await listBanners(database.db, bannerListQuery.parse({}));
    expect(all.rows.map((row) => row.title)).toEqual(await order());
    const id = page.rows[0]!.id;
    expect(await deleteBanner(database.db, id, ADMIN)).toBe(true);
    expect(await deleteBanner(database.db, id, ADMIN)).toBe(false);
    expect(await getBanner(database.db, id)).toBeNull();
  });

  it("refuses bad banner forms with a message per field", () => {
    const result = bannerFormSchema.safeParse({
      title: " ",
      image: "ftp://example.com/x.png",
      alt: "",
      link: "javascript:alert(1)",
      position: "1.5",
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["title", "image", "alt", "link", "position"]),
    );
    expect(bannerFormSchema.safeParse({ ...form(), position: "-1" }).success).toBe(false);
    expect(form({ active: "" }).active).toBe(false);
  });
});
