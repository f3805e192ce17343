import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { S3Driver, type S3DriverOptions } from "~/modules/storage/drivers/s3.server";

const BUCKET = "store-files";

/**
 * An S3-compatible server (s3rver) in this process, on a free port, keeping its objects in a temporary folder, with
 * the store's bucket already made. Its keys are s3rver's own: it checks each request's signature.
 */
export async function startS3rver() {
  const directory = await mkdtemp(path.join(tmpdir(), "storefront-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let running = true;
  return {
    endpoint,
    port,
    bucket: BUCKET,
    /** An S3 driver of the store's, as S3_ENDPOINT and S3_FORCE_PATH_STYLE=true set it up, at `at` (this server). */
    driver(at = endpoint, options: Partial<S3DriverOptions> = {}) {
      return new S3Driver({
        bucket: BUCKET,
        region: "us-east-1",
        endpoint: at,
        credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
        forcePathStyle: true,
        ...options,
      });
    },
    /** Stops answering: the port is closed (connections still open finish their requests). */
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async close() {
      await this.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export type S3rverInstance = Awaited<ReturnType<typeof startS3rver>>;
