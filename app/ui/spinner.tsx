/** The orange route-change spinner; the spec sets its size to 70. */
export function Spinner({ size = 70, label = "Loading" }: { size?: number; label?: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 50 50"
      role="status"
      aria-label={label}
      className="animate-spin text-brand-500"
      data-testid="spinner"
    >
      <circle cx="25" cy="25" r="20" fill="none" stroke="currentColor" strokeOpacity="0.2" strokeWidth="5" />
      <path
        d="M25 5a20 20 0 0 1 20 20"
        fill="none"
        stroke="currentColor"
        strokeWidth="5"
        strokeLinecap="round"
      />
    </svg>
  );
}
