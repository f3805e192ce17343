import { useEffect, useId, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { useCurrentUser } from "./account-provider";
import { Icon } from "~/ui/icon";

/** The header's account piece: a sign-in link for visitors, the user menu for a signed-in customer. */
export function UserMenu() {
  const user = useCurrentUser();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const location = useLocation();

  // The menu closes on a new page, a click elsewhere and Escape.
  const [lastKey, setLastKey] = useState(location.key);
  if (lastKey !== location.key) {
    setLastKey(location.key);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  if (!user) {
    return (
      <Link
        to="/user/login"
        className="inline-flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-ink-900 hover:bg-slate-50"
        data-testid="sign-in-link"
      >
        <Icon name="user" size={20} />
        <span className="sr-only sm:not-sr-only">Sign in</span>
      </Link>
    );
  }
  const first = user.name.trim().split(/\s+/)[0] || "Account";
  return (
    <div className="relative" ref={root} data-testid="user-menu">
      <button
        type="button"
        className="inline-flex max-w-44 items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-ink-900 hover:bg-slate-50"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        data-testid="user-menu-toggle"
      >
        <Icon name="user" size={20} />
        <span className="sr-only">Account menu of </span>
        <span className="sr-only sm:not-sr-only sm:max-w-32 sm:truncate" data-testid="user-menu-name">
          {first}
        </span>
        <span aria-hidden="true" className="text-xs">
          ▾
        </span>
      </button>
      {open ? (
        <div
          id={menuId}
          className="absolute right-0 top-full z-40 mt-1 w-56 rounded-xl border border-slate-200 bg-white py-2 text-sm shadow-lg"
        >
          <p className="truncate px-4 pb-2 text-xs text-slate-500">{user.email}</p>
          <nav aria-label="Your account">
            <Link to="/user/dashboard" className="block px-4 py-2 hover:bg-slate-50">
              Dashboard
            </Link>
            <Link to="/user/orders" className="block px-4 py-2 hover:bg-slate-50">
              Orders
            </Link>
            <Link to="/user/licences" className="block px-4 py-2 hover:bg-slate-50">
              Licences
            </Link>
            <Link to="/user/address" className="block px-4 py-2 hover:bg-slate-50">
              Address book
            </Link>
            <Link to="/user/account" className="block px-4 py-2 hover:bg-slate-50">
              Account settings
            </Link>
          </nav>
          <Form method="post" action="/user/logout" className="mt-1 border-t border-slate-100 pt-1">
            <button
              type="submit"
              className="block w-full px-4 py-2 text-left hover:bg-slate-50"
              data-testid="sign-out"
            >
              Sign out
            </button>
          </Form>
        </div>
      ) : null}
    </div>
  );
}
