import { Form } from "react-router";
import { SEARCH_MAX_LENGTH } from "../search";

const SIZES = {
  large: {
    form: "max-w-2xl",
    input: "px-4 py-2.5 text-base",
    button: "px-5 py-2.5",
  },
  small: {
    form: "mx-auto max-w-md",
    input: "px-3 py-2 text-sm",
    button: "px-4 py-2 text-sm",
  },
} as const;

/** A page's own search of the products (the search page, the 404 page), sent to /search. */
export function SearchForm({
  id,
  size,
  query,
  placeholder,
  className,
  testId,
}: {
  id: string;
  size: keyof typeof SIZES;
  query?: string;
  placeholder: string;
  className: string;
  testId?: string;
}) {
  const classes = SIZES[size];
  return (
    <Form method="get" action="/search" role="search" className={`${className} flex ${classes.form} gap-2`}>
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <input
        // A new query (a link, back and forward) shows in the field.
        key={query}
        id={id}
        name="q"
        type="search"
        defaultValue={query}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder={placeholder}
        className={`min-w-0 flex-1 rounded-lg border border-slate-300 ${classes.input} focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200`}
        data-testid={testId}
      />
      <button
        type="submit"
        className={`rounded-lg bg-brand-700 ${classes.button} font-semibold text-white hover:bg-brand-800`}
      >
        Search
      </button>
    </Form>
  );
}
