/** Small labels beside a user's address: not verified yet, banned. */
export function UserFlags({ emailVerified, banned }: { emailVerified: boolean; banned: boolean }) {
  if (emailVerified && !banned) return null;
  return (
    <span className="mt-1 flex flex-wrap gap-1">
      {emailVerified ? null : (
        <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">not verified</span>
      )}
      {banned ? (
        <span
          className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900"
          data-testid="user-banned"
        >
          banned
        </span>
      ) : null}
    </span>
  );
}
