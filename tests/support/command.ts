import { format } from "node:util";

/** A command line tool's logic (the script itself only passes it the process's arguments, variables and console). */
export type Command = (
  args: string[],
  variables: Record<string, string | undefined>,
  out: Pick<Console, "log" | "error">,
) => Promise<number>;

/** Runs a command in this process: its exit code, and what it wrote as its stdout and stderr would hold it. */
export async function runCommand(
  command: Command,
  args: string[],
  variables: Record<string, string | undefined>,
) {
  let stdout = "";
  let stderr = "";
  const status = await command(args, variables, {
    log: (...values: unknown[]) => void (stdout += `${format(...values)}\n`),
    error: (...values: unknown[]) => void (stderr += `${format(...values)}\n`),
  });
  return { status, stdout, stderr };
}
