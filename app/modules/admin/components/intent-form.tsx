import type { z } from "zod";
import { Form, useNavigation } from "react-router";
import type { FieldErrors } from "~/lib/forms";
import { useFormCheck } from "~/lib/use-form-check";

/**
 * One button's form on an admin record page (mark paid, ship, change role...): the browser checks it with the
 * action's own schema, so mistakes show before it is sent, and `busy` is true while this form is being sent.
 */
export function IntentForm({
  title,
  intent,
  schema,
  serverErrors,
  testId,
  children,
}: {
  title?: string;
  intent: string;
  schema?: z.ZodType;
  serverErrors?: FieldErrors;
  testId: string;
  children: (errors: FieldErrors, busy: boolean) => React.ReactNode;
}) {
  const navigation = useNavigation();
  const { errors, onSubmit, onChange, formRef } = useFormCheck(schema, serverErrors);
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <Form
      method="post"
      noValidate
      data-testid={testId}
      className="space-y-3"
      ref={formRef}
      onSubmit={onSubmit}
      onChange={onChange}
    >
      {title ? <h3 className="text-sm font-semibold text-ink-900">{title}</h3> : null}
      <input type="hidden" name="intent" value={intent} />
      {children(errors, busy)}
    </Form>
  );
}
