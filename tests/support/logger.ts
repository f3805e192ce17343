import { Writable } from "node:stream";
import pino from "pino";
import { type Logger, loggerOptions } from "~/lib/logger.server";

/** A line as pino wrote it: its level and message, and the fields it was given. */
type LogLine = { level: number; msg: string } & Record<string, unknown>;

/** A real pino logger (the store's own options: redaction, safe errors) whose lines are kept for the test to read. */
export function recordingLogger(): { logger: Logger; lines: () => LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ ...loggerOptions, level: "debug" }, stream), lines: () => lines };
}
