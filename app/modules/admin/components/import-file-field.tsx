import { useEffect, useRef, useState } from "react";
import { formatBytes } from "~/lib/byte-size";
import { fileInputClass } from "~/ui/field";

/**
 * The file field of an import form (products, licence keys). A file past `maxBytes` is refused beside the field as
 * soon as it is chosen, and the form is not sent with it: the server's body limit would answer 413 and end the
 * admin on an error page with the form lost.
 */
export function ImportFileField({
  id,
  label,
  accept,
  maxBytes,
}: {
  id: string;
  label: string;
  accept: string;
  maxBytes: number;
}) {
  const [tooBig, setTooBig] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const form = input.current?.form;
    if (!form || !tooBig) return;
    // Before React Router's own submit handler, which sends nothing once the event is cancelled.
    const refuse = (event: SubmitEvent) => {
      event.preventDefault();
      input.current?.focus();
    };
    form.addEventListener("submit", refuse);
    return () => form.removeEventListener("submit", refuse);
  }, [tooBig]);
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink-800">
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="file"
        name="file"
        accept={accept}
        aria-invalid={tooBig ? true : undefined}
        aria-describedby={tooBig ? errorId : undefined}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          setTooBig(
            file && file.size > maxBytes
              ? `${file.name} is ${formatBytes(file.size, "up")}: a file to import can be at most ${formatBytes(maxBytes)}. Split it into smaller files.`
              : null,
          );
        }}
        className={fileInputClass}
      />
      {tooBig ? (
        <p id={errorId} className="mt-1 text-sm text-red-700" role="alert" data-testid="import-file-error">
          {tooBig}
        </p>
      ) : null}
    </div>
  );
}
