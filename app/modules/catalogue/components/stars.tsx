import { formatCount } from "~/lib/money";

/** A rating as words for screen readers: "Rated 4.5 out of 5 by 12 customers". */
function ratingText(average: number, count: number): string {
  return `Rated ${average.toFixed(1)} out of 5 by ${count === 1 ? "1 customer" : `${formatCount(count)} customers`}`;
}

/** Five stars in a 100 x 20 box: the sprite's drawing (app/ui/icon.tsx), not a copy of it on every card. */
function StarRow({ className, width }: { className: string; width: number }) {
  return (
    <svg
      viewBox="0 0 100 20"
      width={width}
      height={width / 5}
      className={`block max-w-none fill-current ${className}`}
      focusable="false"
    >
      <use href="#icon-stars" />
    </svg>
  );
}

/**
 * Five stars filled to a rating, drawn as inline SVG (no script, no request): hidden from screen readers, which read
 * the rating in words instead.
 */
export function Stars({ rating, width = 80 }: { rating: number; width?: number }) {
  const percent = Math.max(0, Math.min(100, (rating / 5) * 100));
  return (
    <span className="relative inline-block shrink-0" aria-hidden="true">
      <StarRow className="text-slate-300" width={width} />
      <span className="absolute inset-y-0 left-0 overflow-hidden" style={{ width: `${percent}%` }}>
        <StarRow className="text-amber-500" width={width} />
      </span>
    </span>
  );
}

/** Stars, the average to one decimal and the count, with the same in words for screen readers. */
export function RatingLine({
  average,
  count,
  testId,
  className = "text-sm",
  starWidth = 80,
}: {
  average: number;
  count: number;
  testId?: string;
  className?: string;
  starWidth?: number;
}) {
  return (
    <p className={`flex flex-wrap items-center gap-x-1.5 text-slate-700 ${className}`} data-testid={testId}>
      <Stars rating={average} width={starWidth} />
      <span className="sr-only">{ratingText(average, count)}</span>
      <span aria-hidden="true">
        <span className="font-semibold text-ink-900">{average.toFixed(1)}</span>
        {` (${formatCount(count)})`}
      </span>
    </p>
  );
}
