import { data, Form, Link } from "react-router";
import { formatMoney } from "~/lib/money";
import { addressForPage, defaultAddress } from "~/modules/accounts/addresses.server";
import { ACTIVITY_STATUS_LABELS } from "~/modules/accounts/activity";
import { AccountShell, Card, formatDate } from "~/modules/accounts/components/account-shell";
import { useCurrentUser } from "~/modules/accounts/components/account-provider";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { getUserRecord } from "~/modules/accounts/user-record.server";
import { sendVerificationLink } from "~/modules/accounts/verification.server";
import { claimableOrderCount, ordersJoinedFromGuest } from "~/modules/accounts/guest-orders.server";
import { ORDER_STATUS_LABELS } from "~/modules/orders/labels";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import { PostalAddress } from "~/ui/postal-address";
import type { Route } from "./+types/user.dashboard";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [record, address, claimable, joined, seo] = await Promise.all([
    getUserRecord(context.db, viewer.id),
    defaultAddress(context.db, viewer.id),
    // Until the address is confirmed, nothing says whether guest orders were placed with it.
    viewer.emailVerified ? claimableOrderCount(context.db, viewer.email) : 0,
    ordersJoinedFromGuest(context.db, viewer.id),
    seoForPath(context, new URL(request.url).pathname, {
      page: {
        title: "Your account",
        description: "Your account: recent orders, default address and status.",
      },
    }),
  ]);
  return data(
    {
      name: viewer.name,
      email: viewer.email,
      emailVerified: viewer.emailVerified,
      status: record?.status ?? "InActive",
      lastLogin: record?.lastLogin ?? null,
      recentOrders: (record?.orders ?? []).slice(0, 3).map((order) => ({
        number: order.number,
        placedAsGuest: joined.some((entry) => entry.number === order.number),
        status: order.status,
        totalCents: order.totalCents,
        currency: order.currency,
        placedAt: new Date(order.timestamp.seconds * 1000).toISOString(),
      })),
      address: address ? addressForPage(address) : null,
      claimable,
      joined: {
        count: joined.length,
        // Each added when a link e-mailed to the address was opened (not with the orders page's button).
        allOnConfirming: joined.every((entry) => entry.by !== "customer"),
      },
      seo,
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  if (viewer.emailVerified) return { verification: "verified" as const };
  return { verification: await sendVerificationLink(context, request, viewer.email) };
}

const VERIFICATION_REPLIES = {
  sent: "We sent you a new link. It works for 24 hours.",
  "too-many": "We just sent one: please wait a minute before asking again.",
  failed: "The link could not be sent. Please try again in a moment.",
  verified: "Your e-mail address is already confirmed.",
} as const;

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  // The live record (pushed from the server) wins over what the page was rendered with.
  const live = useCurrentUser();
  const name = live?.name ?? loaderData.name;
  const status = live?.status ?? loaderData.status;
  const lastLogin = live?.lastLogin ?? loaderData.lastLogin;
  const first = name.trim().split(/\s+/)[0] || name;
  return (
    <AccountShell
      title={`Hello, ${first}`}
      intro={<p data-testid="greeting-email">Signed in as {loaderData.email}</p>}
      testId="dashboard"
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Status" testId="status-card">
          <p className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={`inline-block h-2.5 w-2.5 rounded-full ${status === "Active" ? "bg-green-600" : "bg-slate-400"}`}
            />
            <span className="font-semibold" data-testid="activity-status" data-status={status}>
              {ACTIVITY_STATUS_LABELS[status] ?? "Unknown"}
            </span>
          </p>
          <p className="mt-1 text-sm text-slate-600">Last sign-in: {formatDate(lastLogin, true)}</p>
          {loaderData.emailVerified ? (
            <p className="mt-3 text-sm text-green-800">Your e-mail address is confirmed.</p>
          ) : (
            <div
              className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
              data-testid="verify-notice"
            >
              <p>Please confirm your e-mail address with the link we sent you.</p>
              {actionData ? (
                <p className="mt-2 font-semibold" role="status">
                  {VERIFICATION_REPLIES[actionData.verification]}
                </p>
              ) : (
                <Form method="post" className="mt-2">
                  <button type="submit" className="font-semibold underline">
                    Send the link again
                  </button>
                </Form>
              )}
            </div>
          )}
        </Card>

        <Card
          title="Default address"
          action={
            <Link to="/user/address" className="text-sm font-semibold text-brand-700 hover:underline">
              Manage addresses
            </Link>
          }
        >
          {loaderData.address ? (
            <PostalAddress
              address={loaderData.address}
              name={loaderData.address.name}
              className="not-italic text-sm text-slate-700"
              testId="dashboard-address"
            />
          ) : (
            <p className="text-sm text-slate-600">
              No address saved yet. Save one and checkout fills it in for you.
            </p>
          )}
        </Card>

        <div className="lg:col-span-2">
          <Card
            title="My licences"
            testId="licences-card"
            action={
              <Link to="/user/licences" className="text-sm font-semibold text-brand-700 hover:underline">
                See your licences
              </Link>
            }
          >
            <p className="text-sm text-slate-600">
              Your licence keys in one place: when each expires, the brand&apos;s download and activation
              links, and renewal in one click.
            </p>
          </Card>
        </div>

        <div className="lg:col-span-2">
          <Card
            title="Recent orders"
            testId="recent-orders"
            action={
              <Link to="/user/orders" className="text-sm font-semibold text-brand-700 hover:underline">
                All orders
              </Link>
            }
          >
            {loaderData.joined.count > 0 ? (
              <p
                className="mb-3 rounded-lg bg-green-50 p-3 text-sm text-green-900"
                data-testid="guest-orders-joined"
              >
                {loaderData.joined.count} order{loaderData.joined.count > 1 ? "s" : ""} you placed as a guest
                with your e-mail address {loaderData.joined.count > 1 ? "were" : "was"} added to your account
                {loaderData.joined.allOnConfirming ? " when you confirmed the address" : ""}.
              </p>
            ) : null}
            {loaderData.claimable > 0 ? (
              <p className="mb-3 rounded-lg bg-brand-50 p-3 text-sm text-brand-900">
                {loaderData.claimable} order{loaderData.claimable > 1 ? "s" : ""} placed as a guest with your
                e-mail address can be added to your account.{" "}
                <Link to="/user/orders" className="font-semibold underline">
                  See how
                </Link>
              </p>
            ) : null}
            {loaderData.recentOrders.length === 0 ? (
              <p className="text-sm text-slate-600">
                No orders yet.{" "}
                <Link to="/best-sellers" className="font-semibold text-brand-700 hover:underline">
                  Browse our best sellers
                </Link>
              </p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {loaderData.recentOrders.map((order) => (
                  <li
                    key={order.number}
                    className="flex flex-wrap items-center justify-between gap-2 py-3 text-sm"
                    data-testid="recent-order"
                  >
                    <Link
                      to={`/order/${order.number}`}
                      className="font-semibold text-brand-700 hover:underline"
                    >
                      Order #{order.number}
                    </Link>
                    <span className="text-slate-600">
                      {formatDate(order.placedAt)}
                      {order.placedAsGuest ? (
                        <span className="ml-2 rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-900">
                          Placed as a guest
                        </span>
                      ) : null}
                    </span>
                    <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold">
                      {ORDER_STATUS_LABELS[order.status] ?? order.status}
                    </span>
                    <span className="font-semibold">{formatMoney(order.totalCents, order.currency)}</span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
      <p className="mt-8 text-sm">
        <Link to="/" className="font-semibold text-brand-700 hover:underline">
          Continue shopping
        </Link>
      </p>
    </AccountShell>
  );
}
