import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse } from "react-router";
import { getCompanyPhone, getWebInfo } from "~/modules/content/company.server";
import { SiteFooter } from "~/modules/content/components/site-footer";
import { SiteHeader } from "~/modules/content/components/site-header";
import { useNonce } from "~/lib/nonce";
import type { Route } from "./+types/root";
import "./app.css";

export async function loader({ context }: Route.LoaderArgs) {
  const [phone, info] = await Promise.all([getCompanyPhone(context), getWebInfo(context).catch(() => null)]);
  return {
    phone,
    store: {
      name: info?.name ?? "Storefront",
      email: info?.email ?? "",
      offices: info ? [info.address, info.address2] : [],
    },
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <SiteHeader storeName={loaderData.store.name} phone={loaderData.phone} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter store={loaderData.store} phone={loaderData.phone} />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto max-w-2xl flex-1 px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{notFound ? "Page not found" : "Something went wrong"}</h1>
      <p className="mt-4 text-slate-600">
        {notFound
          ? "We could not find that page."
          : "Please try again in a moment. If it keeps happening, contact us."}
      </p>
      <a className="mt-8 inline-block rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white" href="/">
        Back to the store
      </a>
    </main>
  );
}
