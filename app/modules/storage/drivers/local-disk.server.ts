import { randomBytes } from "node:crypto";
import { chmod, copyFile, mkdir, open, rename, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { keySegments, readAll, type StagedFile, type StorageDriver, StorageKeyError } from "./driver.server";

const isErrno = (error: unknown, ...codes: string[]) =>
  codes.includes((error as NodeJS.ErrnoException | undefined)?.code ?? "");

/**
 * Files on the local disk under one root (DATA_DIR/storage): key `products/a/b.png#g1` is the file
 * `<root>/products/a/b.png#g1`. A file appears under its final name only once complete (staged, then renamed), so a
 * reader never sees half a file. For one machine; several servers need the S3 driver.
 */
export class LocalDiskDriver implements StorageDriver {
  readonly kind = "local";
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key, always inside the root. */
  filePath(key: string): string {
    const file = path.resolve(this.root, ...keySegments(key));
    if (!file.startsWith(this.root + path.sep)) throw new StorageKeyError(`Refusing the storage key ${key}`);
    return file;
  }

  async put(key: string, staged: StagedFile): Promise<void> {
    const target = this.filePath(key);
    // Stored files are the store's alone (private uploads among them), whatever wrote them (sharp, the stager).
    await chmod(staged.path, 0o600);
    for (let attempt = 1; ; attempt++) {
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      try {
        await rename(staged.path, target);
        return;
      } catch (error) {
        // The staging folder is on another file system: copy beside the target, then rename (still atomic).
        if (isErrno(error, "EXDEV")) {
          const temporary = `${target}.${randomBytes(6).toString("hex")}.partial`;
          try {
            await copyFile(staged.path, temporary);
            await rename(temporary, target);
          } finally {
            await rm(temporary, { force: true });
          }
          await rm(staged.path, { force: true });
          return;
        }
        // A delete removed the (then empty) folder between mkdir and rename: make it again.
        if (isErrno(error, "ENOENT") && attempt < 3) continue;
        throw error;
      }
    }
  }

  async stream(key: string): Promise<Readable | null> {
    // Open first, so a missing file is null rather than a stream that fails later.
    try {
      const handle = await open(this.filePath(key), "r");
      return handle.createReadStream();
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
      throw error;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const stream = await this.stream(key);
    return stream ? readAll(stream) : null;
  }

  async delete(key: string): Promise<void> {
    const file = this.filePath(key);
    await rm(file, { force: true });
    // Tidy up folders left empty, up to (not including) the bucket's own folder.
    const bucketDir = path.join(this.root, keySegments(key)[0]!);
    for (let dir = path.dirname(file); dir.startsWith(bucketDir + path.sep); dir = path.dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        break; // not empty (or already gone): stop there
      }
    }
  }
}
