import { CurrencySwitch } from "./currency-switch";
import { Form, useLocation } from "react-router";
import { PageLink } from "~/ui/page-link";
import type { CompanyPhone } from "~/modules/content/company.server";
import type { NavGroup } from "../catalogue.server";
import { useSelection } from "../selection-provider";
import { brandPath, SECTION_ORDER, SECTIONS } from "../sections";
import { Icon } from "~/ui/icon";
import { routePath } from "~/lib/route-path";

export const SECTION_LINKS = [
  ...SECTION_ORDER.map((section) => ({ to: SECTIONS[section].path, label: SECTIONS[section].label })),
  { to: "/digital", label: "Digital services" },
  { to: "/best-sellers", label: "Best sellers" },
  { to: "/top-rated", label: "Top rated" },
] as const;

export function PhoneLink({ phone, className }: { phone: CompanyPhone; className?: string }) {
  if (!phone.phone) return null;
  return (
    <a href={`tel:${phone.phonecall}`} className={className} data-testid="company-phone">
      {phone.phone}
    </a>
  );
}

function Logo({ storeName, className = "" }: { storeName: string; className?: string }) {
  // A long store name wraps rather than pushing the page wider than a phone.
  return (
    <PageLink
      to="/"
      className={`max-w-full shrink-0 text-xl font-extrabold tracking-tight text-ink-900 ${className}`}
    >
      <span className="text-brand-600" aria-hidden="true">
        ◆
      </span>{" "}
      {storeName}
    </PageLink>
  );
}

/** The reduced header of the checkout: the way home and the phone, nothing to wander off to. */
export function CheckoutHeader({
  storeName,
  phone,
  cart,
}: {
  storeName: string;
  phone: CompanyPhone;
  /** The cart link with its item count, the way back from checkout. */
  cart: React.ReactNode;
}) {
  return (
    <header className="border-b border-slate-200 bg-white" data-testid="checkout-header">
      {/* On a phone: the store's name above, the reassurance and the phone beside the cart below. */}
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-3 px-4 py-4">
        <Logo storeName={storeName} className="w-full sm:w-auto" />
        <p className="flex min-w-0 flex-1 flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600 sm:justify-center">
          <span className="flex items-center gap-2">
            <Icon name="lock" size={16} />
            Secure checkout
          </span>
          <PhoneLink phone={phone} className="font-semibold text-ink-900 hover:text-brand-700" />
        </p>
        {cart}
      </div>
    </header>
  );
}

export function SiteHeader({
  storeName,
  phone,
  groups,
  cart,
  account,
}: {
  storeName: string;
  phone: CompanyPhone;
  groups: NavGroup[];
  /** The cart link with its item count (from the cart module). */
  cart: React.ReactNode;
  /** The sign-in link or the user menu (from the accounts module). */
  account?: React.ReactNode;
}) {
  const { categoryNavOpen, setCategoryNavOpen, selectedBrand } = useSelection();
  const { pathname: spelled } = useLocation();
  const pathname = routePath(spelled) ?? spelled.toLowerCase();
  const selectedKey = selectedBrand?.toLowerCase();
  return (
    <header className="relative z-30 border-b border-slate-200 bg-white" data-testid="site-header">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <div className="bg-ink-900 text-sm text-slate-200">
        <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-1 sm:py-2">
          <span className="hidden sm:inline">Licence keys by e-mail · Independent reseller</span>
          <CurrencySwitch className="sm:ml-auto" />
          <span className="ml-auto sm:ml-0">
            Call us: <PhoneLink phone={phone} className="font-semibold text-white hover:text-brand-300" />
          </span>
        </div>
      </div>
      {/*
        A browser may paint a page before it has read all of it, so each piece has a place of its own and one read
        later moves none painted before it. On a phone: the name, then the account and the cart (a row kept at
        their height even before they arrive), then the search; on a tablet, the name beside the account and the
        cart, the search below; wider, one row: the name, the search beside it, and the account and the cart at the
        far end. A phone's screen is short: the rows sit closer there, so that a page's own content starts sooner.
      */}
      <div className="mx-auto grid max-w-7xl grid-cols-1 grid-rows-[auto_minmax(2.375rem,auto)_auto] items-center gap-x-6 gap-y-2 px-4 py-3 sm:gap-y-3 sm:py-4 sm:grid-cols-[1fr_auto] sm:grid-rows-[minmax(2.375rem,auto)_auto] lg:grid-cols-[auto_1fr_auto] lg:grid-rows-[minmax(2.375rem,auto)]">
        <Logo storeName={storeName} className="col-start-1 row-start-1 justify-self-start" />
        <Form
          method="get"
          action="/search"
          role="search"
          className="row-start-3 flex w-full gap-2 sm:col-span-2 sm:row-start-2 lg:col-start-2 lg:col-end-3 lg:row-start-1 lg:max-w-96 lg:justify-self-start"
        >
          <label htmlFor="header-search" className="sr-only">
            Search products
          </label>
          <input
            id="header-search"
            name="q"
            type="search"
            placeholder="Search antivirus, Windows, printers…"
            className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
          />
          <button
            type="submit"
            className="rounded-lg bg-ink-900 px-4 py-2 text-sm font-semibold text-white hover:bg-ink-800"
          >
            Search
          </button>
        </Form>
        <div className="row-start-2 flex items-center gap-1 justify-self-end sm:col-start-2 sm:row-start-1 lg:col-start-3">
          {account}
          {cart}
        </div>
      </div>
      <div className="border-t border-slate-100">
        <div className="mx-auto flex max-w-7xl items-center gap-x-5 gap-y-2 overflow-x-auto px-4 py-1.5 text-sm font-medium sm:py-2">
          <button
            type="button"
            className="flex shrink-0 items-center gap-1 rounded-md bg-brand-50 px-3 py-1.5 font-semibold text-brand-800 hover:bg-brand-100"
            aria-expanded={categoryNavOpen}
            aria-controls="category-menu"
            onClick={() => setCategoryNavOpen(!categoryNavOpen)}
            data-testid="category-menu-toggle"
          >
            <span aria-hidden="true">☰</span> All categories
          </button>
          <nav aria-label="Sections" className="flex shrink-0 gap-x-5">
            {SECTION_LINKS.map((link) => {
              // Active on the section's page and every page under it, as a NavLink is.
              const active = pathname === link.to || pathname.startsWith(`${link.to}/`);
              return (
                <PageLink
                  key={link.to}
                  to={link.to}
                  aria-current={active ? "page" : undefined}
                  className={
                    active
                      ? "whitespace-nowrap text-brand-700"
                      : "whitespace-nowrap text-ink-700 hover:text-brand-700"
                  }
                >
                  {link.label}
                </PageLink>
              );
            })}
          </nav>
        </div>
      </div>
      {categoryNavOpen ? (
        <div
          id="category-menu"
          className="absolute inset-x-0 top-full border-b border-slate-200 bg-white shadow-lg"
          data-testid="category-menu"
        >
          <div className="mx-auto grid max-w-7xl gap-8 px-4 py-6 sm:grid-cols-2 lg:grid-cols-4">
            {SECTION_ORDER.map((section) => (
              <div key={section}>
                <PageLink
                  to={SECTIONS[section].path}
                  className="text-sm font-bold uppercase tracking-wide text-ink-900 hover:text-brand-700"
                >
                  {SECTIONS[section].label}
                </PageLink>
                <ul className="mt-3 space-y-1.5 text-sm">
                  {groups
                    .filter((group) => group.section === section)
                    .map((group) => {
                      const selected = selectedKey !== undefined && group.key.toLowerCase() === selectedKey;
                      return (
                        <li key={group.key}>
                          <PageLink
                            to={brandPath(group)}
                            aria-current={selected ? "true" : undefined}
                            className={
                              selected
                                ? "font-semibold text-brand-700"
                                : "text-slate-700 hover:text-brand-700"
                            }
                          >
                            {group.name}
                          </PageLink>
                        </li>
                      );
                    })}
                </ul>
              </div>
            ))}
          </div>
        </div>
      ) : null}
    </header>
  );
}
