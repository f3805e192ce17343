/**
 * The store's icons, drawn once per page as symbols of one hidden sprite (`IconSprite`, in the root layout) and
 * shown with `<use>`: a brand page's dozen ticks cost a reference each, not a copy of the drawing.
 */
const STROKE = {
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
} as const;

/** A symbol drawn as one filled shape on a 20-pixel grid (its holes cut out by the even-odd rule). */
const solid = (name: string, shape: string) => (
  <symbol key={name} id={`icon-${name}`} viewBox="0 0 20 20">
    <path fill="currentColor" fillRule="evenodd" d={shape} clipRule="evenodd" />
  </symbol>
);

/** One star's outline from its top point, closed: after it the pen is back at that point. */
const STAR = "l2.6 5.6 6.1.7-4.5 4.2 1.2 6-5.4-3-5.4 3 1.2-6-4.5-4.2 6.1-.7z";

const SYMBOLS = {
  check: solid(
    "check",
    "M16.7 5.3a1 1 0 0 1 0 1.4l-7.5 7.5a1 1 0 0 1-1.4 0L3.3 9.7a1 1 0 1 1 1.4-1.4l3.8 3.8 6.8-6.8a1 1 0 0 1 1.4 0Z",
  ),
  info: solid(
    "info",
    "M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-7-4a1 1 0 1 1-2 0 1 1 0 0 1 2 0ZM9 9a.75.75 0 0 0 0 1.5h.25v3.25a.75.75 0 0 0 1.5 0V9.75A.75.75 0 0 0 10 9H9Z",
  ),
  cart: (
    <symbol key="cart" id="icon-cart" viewBox="0 0 24 24" {...STROKE}>
      <circle cx="9" cy="21" r="1" />
      <circle cx="20" cy="21" r="1" />
      <path d="M1 1h4l2.7 13.4a2 2 0 0 0 2 1.6h9.7a2 2 0 0 0 2-1.6L23 6H6" />
    </symbol>
  ),
  user: (
    <symbol key="user" id="icon-user" viewBox="0 0 24 24" {...STROKE}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </symbol>
  ),
  // Five stars in a row for ratings (app/modules/catalogue/components/stars.tsx): one shape, each star 20 units on.
  stars: (
    <symbol key="stars" id="icon-stars" viewBox="0 0 100 20">
      <path fill="currentColor" d={`M10 1.5${`${STAR}m20 0`.repeat(4)}${STAR}`} />
    </symbol>
  ),
  lock: (
    <symbol key="lock" id="icon-lock" viewBox="0 0 24 24" {...STROKE}>
      <rect x="4" y="11" width="16" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </symbol>
  ),
};

export type IconName = keyof typeof SYMBOLS;

/** Every icon's drawing, once; rendered at the top of every page. */
export function IconSprite() {
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute" data-testid="icon-sprite">
      {Object.values(SYMBOLS)}
    </svg>
  );
}

/** One icon, decorative (hidden from assistive technology): size and colour come from `className` or width/height. */
export function Icon({
  name,
  className,
  size,
}: {
  name: IconName;
  className?: string;
  /** Width and height in pixels, when no class sets them. */
  size?: number;
}) {
  return (
    <svg aria-hidden="true" className={className} width={size} height={size}>
      <use href={`#icon-${name}`} />
    </svg>
  );
}
