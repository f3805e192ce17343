const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/**
 * A size as people read it: "512 bytes", "1.5 KiB", "10 MiB" (one decimal, none when it is whole). `up` rounds up,
 * for a size said to be over a limit: a file one byte past 1 MiB reads "1.1 MiB", not "1 MiB".
 */
export function formatBytes(bytes: number, rounding: "nearest" | "up" = "nearest"): string {
  if (bytes < KiB) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const [unit, name] = bytes < MiB ? [KiB, "KiB"] : bytes < GiB ? [MiB, "MiB"] : [GiB, "GiB"];
  const tenths = (rounding === "up" ? Math.ceil : Math.round)((bytes / unit) * 10);
  return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)} ${name}`;
}
