import {
  data as withHeaders,
  type HeadersFunction,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { mayUse } from "~/modules/accounts/staff-roles";
import { getNavigation } from "~/modules/catalogue/catalogue.server";
import { isAdminPath, isPaymentPath } from "~/modules/catalogue/selection";
import { SelectionProvider, useSelection } from "~/modules/catalogue/selection-provider";
import { getCompanyPhone, getWebInfo, readCompanyPhone } from "~/modules/content/company.server";
import { fromSnapshot } from "~/modules/content/snapshot.server";
import { NotFoundPage } from "~/modules/catalogue/components/not-found-page";
import { AdminFooter, SiteFooter } from "~/modules/catalogue/components/site-footer";
import { CheckoutHeader, SiteHeader } from "~/modules/catalogue/components/site-header";
import { useNonce } from "~/lib/nonce";
import { isPersonalPath, PUBLIC_PAGE_CACHE_CONTROL } from "~/lib/page-caching";
import { usePageLinks } from "~/ui/page-link";
import { RouteProgress } from "~/ui/route-progress";
import { ToastProvider } from "~/ui/toast";
import { CartLink } from "~/modules/cart/components/cart-link";
import { AccountProvider } from "~/modules/accounts/components/account-provider";
import { SavedCartSync } from "~/modules/cart/components/saved-cart-sync";
import { UserMenu } from "~/modules/accounts/components/user-menu";
import { getViewer, hasSessionCookie, PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import { getUserRecord } from "~/modules/accounts/user-record.server";
import { SandboxBanner } from "~/modules/orders/components/sandbox-banner";
import { pageMoney, storedSettings } from "~/modules/orders/settings.server";
import { CurrencyProvider, DEFAULT_CHOICE } from "~/lib/currency-context";
import type { Route } from "./+types/root";
import { InlineStyles } from "~/lib/inline-styles";
import { IconSprite } from "~/ui/icon";

export async function loader({ context, request }: Route.LoaderArgs) {
  // Public data comes from the snapshot (a failed read is not kept there, and falls back as before).
  const [phone, info, groups, signedIn, store] = await Promise.all([
    getCompanyPhone(context, () => fromSnapshot(context, "company-phone", () => readCompanyPhone(context))),
    fromSnapshot(context, "web-info", () => getWebInfo(context)).catch((error: unknown) => {
      context.logger.error({ err: error }, "could not read the web info");
      return null;
    }),
    fromSnapshot(context, "navigation", () => getNavigation(context)),
    // Behind the cookie check: a visitor without a session cookie costs no lookup, and their page stays public.
    getViewer(request, context).then(async (found) => ({
      record: found ? await getUserRecord(context.db, found.id) : null,
      // The warning with its link to the settings is for those who may change them (the owner, ADR 0037).
      admin: mayUse(found?.role, "/admin/settings"),
    })),
    // Every page, the settings page included, must render while a stored setting cannot be read (the settings page
    // is where the owner mends it): the frame reads what it can; checkout and the rest refuse to guess.
    storedSettings(context),
  ]);
  for (const { key } of store.unreadable)
    context.logger.error({ setting: key }, "a stored setting cannot be read: see /admin/settings");
  const body = {
    viewer: signedIn.record,
    phone,
    groups,
    // Test payments offered by a production server: every page says so (see the settings page).
    sandboxWarning: context.env.NODE_ENV === "production" && store.values.sandboxPayments !== false,
    // Where to switch them off is for a signed-in admin; anyone else (the admin sign-in page included) is a shopper.
    ownerWarning: signedIn.admin,
    // The shopper's currency (the page cache keeps a page per currency) and the rate rupee prices are worked out at.
    money: pageMoney(request, store.values),
    store: {
      name: info?.name ?? "Storefront",
      email: info?.email ?? "",
      offices: info ? [info.address, info.address2] : [],
    },
  };
  // A page asked for with a session (signed in, or a session that just ended) or at a personal address is the
  // visitor's own; every other page is the same for every visitor, so shared caches (and the server's) may keep it.
  const personal = hasSessionCookie(request) || isPersonalPath(new URL(request.url).pathname);
  return withHeaders(body, {
    headers: personal ? PRIVATE_HEADERS : { "Cache-Control": PUBLIC_PAGE_CACHE_CONTROL },
  });
}

// The store's icon (public/): browsers ask for /favicon.ico on every site; the SVG is sharper where it is supported.
export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "16x16 32x32 48x48" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

// Public or private, as the loader decided for this visitor and address.
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const cacheControl = loaderHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  return headers;
};

// Root data changes only when the admin edits it; it need not reload on every navigation.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod !== undefined && formMethod !== "GET" ? defaultShouldRevalidate : false;
}

export const meta: Route.MetaFunction = ({ error }) => [
  {
    title:
      isRouteErrorResponse(error) && error.status === 404
        ? "Page not found"
        : error
          ? "Something went wrong"
          : "Default Title",
  },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <InlineStyles />
      </head>
      <body className="flex min-h-screen flex-col">
        <IconSprite />
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

type RootData = Route.ComponentProps["loaderData"];

/** Header, footer and the route-change behaviour around every page, by the kind of path. */
function AppChrome({ data, children }: { data: RootData | undefined; children: React.ReactNode }) {
  usePageLinks();
  const { pathname } = useLocation();
  const admin = isAdminPath(pathname);
  const payment = isPaymentPath(pathname);
  const storeName = data?.store.name ?? "Storefront";
  const phone = data?.phone ?? { phone: "", phonecall: "" };
  return (
    <CurrencyProvider value={data?.money ?? DEFAULT_CHOICE}>
      <ToastProvider>
        <AccountProvider viewer={data?.viewer ?? null}>
          <SavedCartSync />
          <SelectionProvider>
            <ChromeState admin={admin} payment={payment}>
              {admin ? null : payment ? (
                <CheckoutHeader storeName={storeName} phone={phone} cart={<CartLink />} />
              ) : (
                <SiteHeader
                  storeName={storeName}
                  phone={phone}
                  groups={data?.groups ?? []}
                  cart={<CartLink />}
                  account={<UserMenu />}
                />
              )}
              {/* The checkout says it in its own notice. */}
              {data?.sandboxWarning && !payment ? <SandboxBanner admin={admin && data.ownerWarning} /> : null}
              <RouteProgress />
              <main id="main" className="flex-1">
                {children}
              </main>
              {admin ? (
                <AdminFooter storeName={storeName} />
              ) : (
                <SiteFooter
                  store={data?.store ?? { name: storeName, email: "", offices: [] }}
                  phone={phone}
                />
              )}
            </ChromeState>
          </SelectionProvider>
        </AccountProvider>
      </ToastProvider>
    </CurrencyProvider>
  );
}

/** Exposes the storefront's state on the page (for assistive tech nothing changes; tests and tools can read it). */
function ChromeState({
  admin,
  payment,
  children,
}: {
  admin: boolean;
  payment: boolean;
  children: React.ReactNode;
}) {
  const { selectedBrand, selectedProduct, selectedCategory } = useSelection();
  return (
    <div
      className="flex min-h-screen flex-col"
      data-testid="app"
      data-admin={admin}
      data-payment={payment}
      data-selected-brand={admin ? "" : (selectedBrand ?? "")}
      data-selected-product={admin ? "" : (selectedProduct?.route ?? "")}
      data-selected-category={admin ? "" : (selectedCategory ?? "")}
    >
      {children}
    </div>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <AppChrome data={loaderData}>
      <Outlet />
    </AppChrome>
  );
}

/**
 * The statuses of the server's own refusals of a page's request (server/): sent from another address (403), too
 * large (413), at another host than the store's (421), a database busy or away (503) or out of disk (507). Their
 * text is written for people; React Router's own errors (its 404 and 405 carry developer text) are not shown.
 */
const REFUSALS = new Set([403, 413, 421, 503, 507]);

function refusalMessage(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || !REFUSALS.has(error.status)) return null;
  return typeof error.data === "string" && error.data.length <= 500 ? error.data : null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<typeof loader>("root");
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const refusal = refusalMessage(error);
  return (
    <AppChrome data={data}>
      {notFound ? (
        <NotFoundPage />
      ) : (
        <section className="mx-auto max-w-2xl px-4 py-24 text-center">
          <h1 className="text-3xl font-bold">Something went wrong</h1>
          <p className="mt-4 text-slate-600" data-testid="error-message">
            {refusal ?? "Please try again in a moment. If it keeps happening, contact us."}
          </p>
          <a
            className="mt-8 inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white"
            href="/"
          >
            Back to the store
          </a>
        </section>
      )}
    </AppChrome>
  );
}
