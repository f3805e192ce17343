import { Link, NavLink } from "react-router";
import type { CompanyPhone } from "../company.server";

export const SECTION_LINKS = [
  { to: "/antivirus", label: "Antivirus" },
  { to: "/windows", label: "Windows" },
  { to: "/printer", label: "Printers" },
  { to: "/router", label: "Routers" },
  { to: "/digital", label: "Digital services" },
  { to: "/best-sellers", label: "Best sellers" },
] as const;

export function PhoneLink({ phone, className }: { phone: CompanyPhone; className?: string }) {
  if (!phone.phone) return null;
  return (
    <a href={`tel:${phone.phonecall}`} className={className} data-testid="company-phone">
      {phone.phone}
    </a>
  );
}

export function SiteHeader({ storeName, phone }: { storeName: string; phone: CompanyPhone }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <div className="bg-ink-900 text-sm text-slate-200">
        <div className="mx-auto flex max-w-7xl items-center justify-between px-4 py-2">
          <span>Licence keys by e-mail right after payment</span>
          <span>
            Call us: <PhoneLink phone={phone} className="font-semibold text-white hover:text-brand-300" />
          </span>
        </div>
      </div>
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-8 gap-y-3 px-4 py-4">
        <Link to="/" className="text-xl font-extrabold tracking-tight text-ink-900">
          <span className="text-brand-600">◆</span> {storeName}
        </Link>
        <nav aria-label="Sections" className="flex flex-wrap gap-x-5 gap-y-2 text-sm font-medium">
          {SECTION_LINKS.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                isActive ? "text-brand-700" : "text-ink-700 hover:text-brand-700"
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
      </div>
    </header>
  );
}
