/** Outline icons for the digital services; a generic one for services added later. */
const PATHS: Record<string, string[]> = {
  // A megaphone.
  "digital-marketing": [
    "M10.34 15.84c-.69-.05-1.38-.08-2.09-.08H7.5a4.5 4.5 0 1 1 0-9h.75c.71 0 1.4-.03 2.09-.08m0 9.16c.25.96.58 1.89.99 2.77.25.54.06 1.2-.46 1.5l-.66.38c-.51.3-1.17.1-1.42-.43a18.9 18.9 0 0 1-1.44-4.28m3 .06a18.2 18.2 0 0 1 8.04 2.33m-8.04-11.55a18.2 18.2 0 0 0 8.04-2.33m0 0c.18.57.33 1.16.47 1.75a24 24 0 0 1 0 10.06c-.14.6-.3 1.18-.47 1.75m0-13.56v13.56",
  ],
  // Code brackets in a window.
  "web-development": ["M17.25 6.75 22.5 12l-5.25 5.25m-10.5 0L1.5 12l5.25-5.25m7.5-3-4.5 16.5"],
  // A pen on paper.
  "content-writing": [
    "m16.86 4.49 1.69-1.69a1.88 1.88 0 1 1 2.65 2.65L10.58 16.07a4.5 4.5 0 0 1-1.9 1.13L6 18l.8-2.68a4.5 4.5 0 0 1 1.13-1.9l8.93-8.93Zm0 0L19.5 7.13M18 14v4.75A2.25 2.25 0 0 1 15.75 21H5.25A2.25 2.25 0 0 1 3 18.75V8.25A2.25 2.25 0 0 1 5.25 6H10",
  ],
  // A phone.
  "app-development": [
    "M10.5 1.5H8.25A2.25 2.25 0 0 0 6 3.75v16.5a2.25 2.25 0 0 0 2.25 2.25h7.5A2.25 2.25 0 0 0 18 20.25V3.75a2.25 2.25 0 0 0-2.25-2.25H13.5m-3 0V3h3V1.5m-3 0h3m-3 18.75h3",
  ],
};

// Sparkles, for any other service.
const GENERIC = [
  "M9.81 15.9 9 18.75l-.81-2.85a4.5 4.5 0 0 0-3.09-3.09L2.25 12l2.85-.81a4.5 4.5 0 0 0 3.09-3.09L9 5.25l.81 2.85a4.5 4.5 0 0 0 3.09 3.09l2.85.81-2.85.81a4.5 4.5 0 0 0-3.09 3.09ZM18.26 8.72 18 9.75l-.26-1.03a3.38 3.38 0 0 0-2.46-2.46L14.25 6l1.03-.26a3.38 3.38 0 0 0 2.46-2.46L18 2.25l.26 1.03a3.38 3.38 0 0 0 2.46 2.46l1.03.26-1.03.26a3.38 3.38 0 0 0-2.46 2.46Z",
];

export function ServiceIcon({ slug, className = "" }: { slug: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700 ring-1 ring-brand-100 ${className}`}
    >
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" className="h-6 w-6">
        {(PATHS[slug] ?? GENERIC).map((d) => (
          <path key={d} strokeLinecap="round" strokeLinejoin="round" d={d} />
        ))}
      </svg>
    </span>
  );
}
