import { data, Form, Link, redirect, useNavigation } from "react-router";
import { readFormBody } from "~/lib/form-data.server";
import { fieldErrors } from "~/lib/forms";
import { type Currency, formatMoney } from "~/lib/money";
import { safeRedirect, signInSchema } from "~/modules/accounts/schemas";
import { NOT_AN_ADMIN } from "~/modules/accounts/messages";
import { ADMIN_ACCOUNT_PATH, getViewer, PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { signIn } from "~/modules/accounts/sign-in.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import { SalesChart } from "~/modules/admin/components/sales-chart";
import { isStaffRole } from "~/modules/accounts/staff-roles";
import { dashboardFor } from "~/modules/admin/dashboard.server";
import { KeyEconomics } from "~/modules/admin/components/key-economics";
import { RenewalsBlock } from "~/modules/admin/components/renewals-block";
import { TextField } from "~/ui/field";
import { type ActionReply, refusal } from "~/lib/action-reply";
import type { Route } from "./+types/admin._index";

/** Where an admin goes after signing in: an admin page they asked for, else the dashboard. */
const adminRedirect = (value: string | null | undefined) => {
  const target = safeRedirect(value, "/admin");
  return target.toLowerCase().startsWith("/admin") ? target : "/admin";
};

/** /admin: the admin sign-in for anyone who is not a signed-in admin, the dashboard for an admin. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  const url = new URL(request.url);
  if (!viewer || !isStaffRole(viewer.role)) {
    return data(
      {
        view: "sign-in" as const,
        signedInAs: viewer?.email ?? null,
        redirectTo: adminRedirect(url.searchParams.get("redirectTo")),
      },
      // A signed-in customer is refused here as on every admin page.
      { status: viewer ? 403 : 200, headers: PRIVATE_HEADERS },
    );
  }
  // On admin:create's temporary password: choose a new one first.
  if (viewer.mustChangePassword) throw redirect(ADMIN_ACCOUNT_PATH, { headers: PRIVATE_HEADERS });
  const shown = await dashboardFor(context.db, viewer.role);
  return data({ view: "dashboard" as const, ...shown }, { headers: PRIVATE_HEADERS });
}

type Reply = ActionReply<{ email?: string }>;

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  if (!body.ok) {
    return refusal<{ email?: string }>(400, {
      errors: { form: "The form could not be read: reload the page and try again" },
    });
  }
  const parsed = signInSchema.safeParse(body.values);
  const email = body.values.email ?? "";
  if (!parsed.success) return refusal<{ email?: string }>(400, { errors: fieldErrors(parsed.error), email });
  const result = await signIn(context, request, parsed.data);
  if (!result.ok) return refusal<{ email?: string }>(result.status, { errors: result.errors, email });
  // Signed in; a customer's account lands on the refusal, an admin's on the page they asked for.
  return redirect(adminRedirect(parsed.data.redirectTo), { headers: result.headers });
}

function SignIn({
  signedInAs,
  redirectTo,
  reply,
}: {
  signedInAs: string | null;
  redirectTo: string;
  reply?: Reply;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = reply?.errors ?? {};
  return (
    <section
      aria-labelledby="admin-sign-in"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h1 id="admin-sign-in" className="text-2xl font-extrabold text-ink-900">
        Admin sign-in
      </h1>
      {signedInAs ? (
        <div
          role="alert"
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p>
            {NOT_AN_ADMIN}: you are signed in as <strong>{signedInAs}</strong>.
          </p>
          <Form method="post" action="/admin/logout" className="mt-2">
            <button type="submit" className="font-semibold text-brand-700 underline">
              Sign out to use another account
            </button>
          </Form>
        </div>
      ) : (
        <p className="mt-2 text-sm text-slate-600">For the people who run the store.</p>
      )}
      {errors.form ? (
        <p
          role="alert"
          data-testid="form-error"
          className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          {errors.form}
        </p>
      ) : null}
      <Form method="post" className="mt-4 space-y-4" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <TextField
          label="E-mail address"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={reply?.email}
          error={errors.email}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.password}
        />
        <button
          type="submit"
          disabled={busy}
          className="w-full rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
        >
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </Form>
    </section>
  );
}

function Stat({
  label,
  testId,
  orders,
  revenueCents,
  currency = "USD",
}: {
  label: string;
  testId: string;
  orders: number;
  revenueCents: number;
  currency?: Currency;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4" data-testid={testId}>
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-bold text-ink-900" data-testid={`${testId}-revenue`}>
        {formatMoney(revenueCents, currency)}
      </p>
      <p className="text-sm text-slate-600" data-testid={`${testId}-orders`}>
        {orders} {orders === 1 ? "order" : "orders"}
      </p>
    </div>
  );
}

function QueueItem({ label, count, to }: { label: string; count: number | null; to: string }) {
  // Null: a count of another role's area (ADR 0037), not shown.
  if (count === null) return null;
  return (
    <li>
      <Link to={to} className="flex items-center justify-between rounded-lg px-3 py-2 hover:bg-slate-50">
        <span>{label}</span>
        <span
          className={`rounded-full px-2.5 py-0.5 text-sm font-semibold ${count > 0 ? "bg-amber-100 text-amber-900" : "bg-slate-100 text-slate-600"}`}
        >
          {count}
        </span>
      </Link>
    </li>
  );
}

export default function AdminIndex({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.view === "sign-in") {
    return (
      <SignIn signedInAs={loaderData.signedInAs} redirectTo={loaderData.redirectTo} reply={actionData} />
    );
  }
  const { sales, queue, keys, renewals, held } = loaderData;
  return (
    <AdminPage
      title="Dashboard"
      intro={
        sales
          ? "Paid orders and revenue (UTC days) in US dollars, orders in rupees apart, and what needs doing."
          : "What needs doing."
      }
    >
      {sales ? (
        <div className="grid gap-4 sm:grid-cols-3" data-testid="sales-summary">
          <Stat label="Today (USD)" testId="sales-today" {...sales.today} />
          <Stat label="Last 7 days (USD)" testId="sales-week" {...sales.week} />
          <Stat label="Last 30 days (USD)" testId="sales-month" {...sales.month} />
        </div>
      ) : null}
      {sales && sales.rupees.month.orders > 0 ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-3" data-testid="sales-summary-inr">
          <Stat label="Today (INR)" testId="sales-inr-today" currency="INR" {...sales.rupees.today} />
          <Stat label="Last 7 days (INR)" testId="sales-inr-week" currency="INR" {...sales.rupees.week} />
          <Stat label="Last 30 days (INR)" testId="sales-inr-month" currency="INR" {...sales.rupees.month} />
        </div>
      ) : null}
      {sales && sales.testOrders > 0 ? (
        <p className="mt-2 text-sm text-slate-600" data-testid="sales-test-orders">
          Not counted: {sales.testOrders} paid test {sales.testOrders === 1 ? "order" : "orders"} in the last
          30 days (placed while test payments were on; no money moved).
        </p>
      ) : null}
      {keys ? <KeyEconomics economics={keys} /> : null}
      <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        {sales ? <SalesChart days={sales.chart} /> : null}
        <section aria-labelledby="work-queue" className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="work-queue" className="text-sm font-semibold text-ink-900">
            Waiting
          </h2>
          <ul className="mt-2 text-sm" data-testid="work-queue">
            {/* Held orders (ADR 0035): first, as each one waits for the owner's decision. */}
            <QueueItem label="Orders on hold to check" count={held} to="/admin/orders?status=held" />
            <QueueItem
              label="Orders awaiting payment"
              count={queue.awaitingPayment}
              to="/admin/orders?status=pending_payment"
            />
            <QueueItem
              label="Paid orders awaiting keys"
              count={queue.awaitingKeys}
              to="/admin/orders?status=paid"
            />
            <QueueItem label="Orders to ship" count={queue.awaitingShipment} to="/admin/orders?status=paid" />
            <QueueItem label="Keys reported broken" count={queue.openKeyReports} to="/admin/key-reports" />
            <QueueItem label="Reviews waiting" count={queue.pendingReviews} to="/admin/reviews" />
            <QueueItem
              label="E-mails that failed"
              count={queue.failedEmails}
              to="/admin/emails?status=failed"
            />
          </ul>
          {queue.lowKeyPools === null ? null : (
            <h2 className="mt-4 text-sm font-semibold text-ink-900">Low key pools</h2>
          )}
          {queue.lowKeyPools === null ? null : queue.lowKeyPools.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Every software product has keys to sell.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm" data-testid="low-key-pools">
              {queue.lowKeyPools.map((pool) => (
                <li key={`${pool.productId} ${pool.variant ?? ""}`}>
                  <Link
                    to={`/admin/keys?product=${pool.productId}`}
                    className="flex justify-between hover:text-brand-700"
                  >
                    <span>{pool.name}</span>
                    <span className={pool.available === 0 ? "font-semibold text-red-700" : ""}>
                      {pool.available} left
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {queue.lowStock === null ? null : (
            <h2 className="mt-4 text-sm font-semibold text-ink-900">Low stock</h2>
          )}
          {queue.lowStock === null ? null : queue.lowStock.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">Every counted printer and router has stock to sell.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm" data-testid="low-stock">
              {queue.lowStock.map((item) => (
                <li key={item.productId}>
                  <Link
                    to={`/admin/products/${item.productId}`}
                    className="flex justify-between gap-3 hover:text-brand-700"
                  >
                    <span>{item.name}</span>
                    <span
                      className={`shrink-0 whitespace-nowrap ${item.stock === 0 ? "font-semibold text-red-700" : ""}`}
                    >
                      {item.stock === 0 ? "Out of stock" : `${item.stock} left`}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {renewals ? <RenewalsBlock renewals={renewals} /> : null}
    </AdminPage>
  );
}
