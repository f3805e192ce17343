import type { ReactNode } from "react";

/** How a queue item stands: waiting for an answer, answered as asked, or closed otherwise. */
export type StatusTone = "waiting" | "done" | "closed";

const TONES: Record<StatusTone, string> = {
  waiting: "bg-amber-100 text-amber-900",
  done: "bg-emerald-100 text-emerald-900",
  closed: "bg-slate-200 text-slate-800",
};

/** A queue item's status as a small coloured label (the key reports' and the reviews' queues). */
export function StatusPill({
  tone,
  testId,
  children,
}: {
  tone: StatusTone;
  testId: string;
  children: ReactNode;
}) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${TONES[tone]}`} data-testid={testId}>
      {children}
    </span>
  );
}
