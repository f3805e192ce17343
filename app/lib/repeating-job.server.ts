import type { Logger } from "./logger.server";

/**
 * Runs `pass` now and then every `intervalMs`, never two at once in this process; a failed pass is logged and the
 * next one tries again. For the jobs every process runs, whose own rows make each thing happen once.
 */
export function repeatEvery(logger: Logger, what: string, intervalMs: number, pass: () => Promise<unknown>) {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await pass();
    } catch (error) {
      logger.error({ err: error }, `${what} failed`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
