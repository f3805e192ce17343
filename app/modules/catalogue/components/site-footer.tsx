import { PageLink } from "~/ui/page-link";
import type { CompanyPhone } from "~/modules/content/company.server";
import { INFORMATION_LINKS } from "~/modules/content/information-links";
import { PhoneLink, SECTION_LINKS } from "./site-header";

type Store = { name: string; email: string; offices: string[] };

/** A column of the footer's links, named for assistive technology by `label`. */
function FooterNav({
  label,
  title,
  links,
}: {
  label: string;
  title: string;
  links: readonly { to: string; label: string }[];
}) {
  return (
    <nav aria-label={label}>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <PageLink className="hover:text-white" to={link.to}>
              {link.label}
            </PageLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SiteFooter({ store, phone }: { store: Store; phone: CompanyPhone }) {
  return (
    <footer className="mt-16 bg-ink-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-white">{store.name}</p>
          <p className="mt-3 text-sm">
            An independent reseller of software licences, printers and routers. Not affiliated with or
            endorsed by the brands we sell.
          </p>
          <p className="mt-4 text-sm">
            <PhoneLink phone={phone} className="font-semibold text-white hover:text-brand-300" />
          </p>
          {store.email ? (
            <p className="mt-1 text-sm">
              <a className="hover:text-white" href={`mailto:${store.email}`}>
                {store.email}
              </a>
            </p>
          ) : null}
        </div>
        <FooterNav label="Shop" title="Shop" links={SECTION_LINKS} />
        <FooterNav
          label="Policies"
          title="Company"
          links={[...INFORMATION_LINKS, { to: "/order/lookup", label: "Find my order" }]}
        />
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">Offices</h2>
          <ul className="mt-3 space-y-3 text-sm">
            {store.offices.map((office) => (
              <li key={office}>{office}</li>
            ))}
          </ul>
        </div>
      </div>
      <p className="border-t border-white/10 py-4 text-center text-xs text-slate-400">
        © {new Date().getFullYear()} {store.name}. All trademarks belong to their owners.
      </p>
    </footer>
  );
}

/** The admin area's footer, in place of the public one. */
export function AdminFooter({ storeName }: { storeName: string }) {
  return (
    <footer className="border-t border-slate-200 bg-white" data-testid="admin-footer">
      <div className="mx-auto flex max-w-7xl flex-wrap justify-between gap-2 px-4 py-4 text-xs text-slate-500">
        <span>{storeName} · Admin area</span>
        <PageLink to="/" className="hover:text-brand-700">
          View the store
        </PageLink>
      </div>
    </footer>
  );
}
