import type { ComponentProps } from "react";
import { TextField } from "~/ui/field";
import { MIN_PASSWORD } from "../schemas";

/**
 * Where a customer chooses a password (sign-up, reset, change): the browser may offer one it makes up, and the hint
 * gives the store's rule, which the schemas check.
 */
export function NewPasswordField(
  props: Omit<ComponentProps<typeof TextField>, "type" | "autoComplete" | "hint">,
) {
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      hint={`At least ${MIN_PASSWORD} characters.`}
      {...props}
    />
  );
}
