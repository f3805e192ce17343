import type { ComponentProps } from "react";
import { Link } from "react-router";

const styles = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-300",
  secondary: "border border-slate-300 bg-white text-ink-900 hover:bg-slate-50 disabled:text-slate-400",
  dark: "bg-ink-900 text-white hover:bg-ink-800 disabled:bg-slate-400",
  danger: "border border-red-300 bg-white text-red-800 hover:bg-red-50 disabled:text-slate-400",
} as const;

export type ButtonVariant = keyof typeof styles;

export const buttonClass = (variant: ButtonVariant = "primary", extra = "") =>
  `inline-flex items-center justify-center gap-2 rounded-lg px-5 py-2.5 text-sm font-semibold transition disabled:cursor-not-allowed ${styles[variant]} ${extra}`;

export function Button({
  variant,
  className,
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant }) {
  return <button type="button" {...props} className={buttonClass(variant, className)} />;
}

export function ButtonLink({
  variant,
  className,
  ...props
}: ComponentProps<typeof Link> & { variant?: ButtonVariant }) {
  return <Link {...props} className={buttonClass(variant, className)} />;
}
