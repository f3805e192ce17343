import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";

/**
 * How many server processes to run: WEB_CONCURRENCY, else one per core, on PostgreSQL. The embedded database
 * belongs to one process, so it runs one whatever is asked (and says so).
 */
export function processCount(env: Pick<Env, "DATABASE_URL" | "WEB_CONCURRENCY">): {
  count: number;
  notice?: string;
} {
  if (!env.DATABASE_URL) {
    return {
      count: 1,
      notice:
        env.WEB_CONCURRENCY && env.WEB_CONCURRENCY > 1
          ? `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} asks for several processes, but the embedded database is held by one: running one. Set DATABASE_URL to run several.`
          : undefined,
    };
  }
  return { count: env.WEB_CONCURRENCY ?? os.availableParallelism() };
}

/** Restarts allowed within a minute before the primary gives up on a crash loop (and stops, exit code 1). */
const restartBudget = (count: number) => Math.max(5, 2 * count);

/**
 * The cluster's primary: prepares the database once (migrations, the demo store), starts `count` workers that
 * serve on the same port, starts another when one dies (unless they keep dying), and on SIGTERM or SIGINT stops
 * them all, each finishing its requests within SHUTDOWN_TIMEOUT_SECONDS, then exits.
 */
export async function runPrimary({
  env,
  logger,
  count,
  prepare,
}: {
  env: Pick<Env, "PUBLIC_URL" | "SHUTDOWN_TIMEOUT_SECONDS">;
  logger: Logger;
  count: number;
  prepare: () => Promise<void>;
}): Promise<void> {
  let stopping = false;
  let exitCode = 0;
  const restarts: number[] = [];
  const workers = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker);

  const stop = (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ reason, processes: workers().length }, "stopping every server process");
    for (const worker of workers()) worker.process.kill("SIGTERM");
    // Each worker ends by itself within its deadline; whatever is still there a little later is ended here.
    setTimeout(
      () => {
        for (const worker of workers()) worker.process.kill("SIGKILL");
        process.exit(exitCode || 1);
      },
      (env.SHUTDOWN_TIMEOUT_SECONDS + 10) * 1000,
    ).unref();
    if (workers().length === 0) process.exit(exitCode);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // Started by npm start's launcher, which was then killed outright: stop rather than serve on unsupervised.
  if (process.channel) process.on("disconnect", () => stop("the launcher ended"));

  await prepare();
  if (stopping) return;

  let listening = 0;
  cluster.on("listening", () => {
    listening += 1;
    if (listening === count) {
      console.log(
        `Storefront ready at ${env.PUBLIC_URL} (database: PostgreSQL, ${count} processes, Node ${process.versions.node})`,
      );
    }
  });
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (workers().length === 0) process.exit(exitCode);
      return;
    }
    const now = Date.now();
    while (restarts.length > 0 && now - restarts[0]! > 60_000) restarts.shift();
    if (restarts.length >= restartBudget(count)) {
      logger.fatal(
        { pid: worker.process.pid, code, signal, restarts: restarts.length },
        "server processes keep dying: stopping the rest instead of restarting them again",
      );
      stop("crash loop", 1);
      return;
    }
    restarts.push(now);
    logger.error({ pid: worker.process.pid, code, signal }, "a server process ended: starting another");
    cluster.fork();
  });
  for (let n = 0; n < count; n++) cluster.fork();
}
