import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { Link } from "react-router";

/** Notifications close by themselves after this long (the spec's 5000 ms). */
export const TOAST_MS = 5000;

export type ToastKind = "success" | "info" | "warning" | "error";
export type ToastInput = { message: string; kind?: ToastKind; action?: { label: string; to: string } };
type Toast = ToastInput & { id: number; kind: ToastKind };

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

const tone: Record<ToastKind, string> = {
  success: "border-green-300 bg-green-50 text-green-900",
  info: "border-slate-300 bg-white text-ink-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

let nextId = 1;

export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const show = useCallback((input: ToastInput) => {
    setToasts((all) => [...all.slice(-3), { ...input, kind: input.kind ?? "info", id: nextId++ }]);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      {/* Top-right; a polite live region so screen readers announce each one. */}
      <div
        className="pointer-events-none fixed right-4 top-4 z-[60] flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2"
        aria-live="polite"
        data-testid="toasts"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(toast.id), TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [toast.id, onDismiss]);
  return (
    <div
      role={toast.kind === "error" || toast.kind === "warning" ? "alert" : "status"}
      className={`pointer-events-auto flex items-start gap-3 rounded-xl border p-4 text-sm shadow-lg ${tone[toast.kind]}`}
      data-testid="toast"
      data-kind={toast.kind}
    >
      <p className="flex-1">
        {toast.message}
        {toast.action ? (
          <>
            {" "}
            <Link to={toast.action.to} className="font-semibold underline">
              {toast.action.label}
            </Link>
          </>
        ) : null}
      </p>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className="text-current opacity-60 hover:opacity-100"
        aria-label="Dismiss notification"
      >
        ×
      </button>
    </div>
  );
}

export function useToast() {
  const show = useContext(ToastContext);
  if (!show) throw new Error("useToast needs a ToastProvider");
  return useMemo(() => show, [show]);
}
