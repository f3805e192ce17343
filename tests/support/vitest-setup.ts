import { afterEach, beforeEach, vi } from "vitest";

// An unexpected console.error is a bug: fail the test that caused it. Tests that expect one spy on it themselves.
let errorSpy: ReturnType<typeof vi.spyOn> | undefined;
beforeEach(() => {
  errorSpy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(" ")}`);
  });
});
afterEach(() => {
  errorSpy?.mockRestore();
});
