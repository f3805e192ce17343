import { createContext, useContext, useEffect, useMemo, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { useToast } from "~/ui/toast";
import { FLASH_TOASTS, takeFlash } from "../flash";
import {
  clearLocalData,
  normalizeUserRecord,
  type UserRecord,
  userStore,
  useStoredUser,
} from "../user-record";

const AccountContext = createContext<UserRecord | null>(null);

/** The signed-in user as this page knows it: the live local copy, or what the server rendered. */
export function useCurrentUser(): UserRecord | null {
  return useContext(AccountContext);
}

/**
 * Keeps the signed-in user in local storage (`user`) in step with the server: seeds it from the page, then follows
 * the live record (server-sent events). A record that no longer exists signs the page out and goes to /user/login;
 * a changed one replaces the local copy without a reload. Also shows the one-time notices of sign-in and sign-out.
 */
export function AccountProvider({
  viewer,
  children,
}: {
  /** The record the server read for this request's session (null for a visitor). */
  viewer: unknown;
  children: React.ReactNode;
}) {
  const serverUser = useMemo(() => normalizeUserRecord(viewer), [viewer]);
  const stored = useStoredUser();
  const [ended, setEnded] = useState<unknown>(null);
  const active = serverUser && ended !== viewer ? serverUser : null;
  const navigate = useNavigate();
  const location = useLocation();
  const toast = useToast();

  // One-time notices (and the local clean-up of a sign-out) after each navigation, but for the one this page makes
  // itself when the account is gone: that news comes while the request that deleted it (here or in another tab) is
  // still answering, and its notice belongs to the page that answer opens.
  const leavesFlash = (location.state as { leaveFlash?: boolean } | null)?.leaveFlash === true;
  useEffect(() => {
    if (leavesFlash) return;
    void takeFlash().then((codes) => {
      if (codes.includes("signed-out") || codes.includes("account-deleted")) clearLocalData();
      for (const code of codes) toast(FLASH_TOASTS[code]);
    });
  }, [location.key, leavesFlash, toast]);

  // Nobody signed in here: no local user either.
  useEffect(() => {
    if (!active && userStore.get() !== null) userStore.set(null);
    else if (active && userStore.get()?.uid !== active.uid) userStore.set(active);
  }, [active]);

  const uid = active?.uid;
  useEffect(() => {
    if (!uid) return;
    const events = new EventSource("/api/user/events");
    const end = (gone: boolean) => {
      events.close();
      userStore.set(null);
      setEnded(viewer);
      if (gone) navigate("/user/login", { replace: true, state: { leaveFlash: true } });
    };
    events.addEventListener("user", (event) => {
      let record: UserRecord | null = null;
      try {
        record = normalizeUserRecord(JSON.parse((event as MessageEvent<string>).data));
      } catch {
        record = null;
      }
      if (record?.uid === uid) userStore.set(record);
    });
    events.addEventListener("gone", () => end(true));
    events.addEventListener("signed-out", () => end(false));
    return () => events.close();
  }, [uid, viewer, navigate]);

  const current = active ? (stored?.uid === active.uid ? stored : active) : null;
  return <AccountContext.Provider value={current}>{children}</AccountContext.Provider>;
}
