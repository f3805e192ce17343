import { Link } from "react-router";

/**
 * Shown on every page while test payments are offered by a production server: shoppers learn that no money moves,
 * and the owner, in the admin, where to switch them off before taking real orders.
 */
export function SandboxBanner({ admin }: { admin: boolean }) {
  return (
    <div
      role="region"
      aria-label="Test payments"
      data-testid="sandbox-banner"
      // One short line on a phone, where the page's own content should start as soon as it can.
      className="border-b border-amber-300 bg-amber-100 px-4 py-1.5 text-center text-xs text-amber-950 sm:py-2 sm:text-sm"
    >
      {admin ? (
        <>
          <strong>Test payments are on:</strong> anyone can complete an order, licence keys included, without
          paying.{" "}
          <Link to="/admin/settings#settings-payments" className="font-semibold underline">
            Switch them off in the settings
          </Link>{" "}
          before taking real orders.
        </>
      ) : (
        <>
          <strong>Demo store:</strong> test payments are on and no money moves.
        </>
      )}
    </div>
  );
}
