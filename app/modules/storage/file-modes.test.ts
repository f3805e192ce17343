import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorageServer, type StorageTestServer } from "../../../tests/support/storage";
import { uploadUrlPath } from "./paths";

/** Files and folders under `root` with any permission for group or others, and their modes. */
async function openToOthers(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { recursive: true })) {
    const mode = (await stat(path.join(root, entry))).mode;
    if (mode & 0o077) found.push(`${entry} ${(mode & 0o777).toString(8)}`);
  }
  return found;
}

describe("stored files on the local disk", () => {
  let server: StorageTestServer;
  const umask = process.umask();
  beforeAll(async () => {
    // A shell's usual umask: without care, what the store writes would be readable by every local user.
    process.umask(0o022);
    server = await startStorageServer("pglite");
  });
  afterAll(async () => {
    await server?.close();
    process.umask(umask);
  });

  it("keeps private uploads (re-encoded images and PDFs) and their folders owner-only", async () => {
    const token = server.signIn({ id: "ada", role: "customer" });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c03" } })
      .png()
      .toBuffer();
    const pdf = Buffer.from(
      "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    );
    for (const [name, bytes, type] of [
      ["photo.png", png, "image/png"],
      ["invoice.pdf", pdf, "application/pdf"],
    ] as const) {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
      const response = await fetch(`${server.url}${uploadUrlPath("uploads", `users/ada/${name}`)}`, {
        method: "POST",
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status, name).toBe(200);
    }
    expect((await server.files()).filter((file) => file.startsWith("storage/uploads/"))).toHaveLength(2);
    expect(await openToOthers(server.root)).toEqual([]);
  });
});
