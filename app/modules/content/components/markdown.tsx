import type { ComponentProps } from "react";
import markdownToElements, { type Components } from "react-markdown";
import { Link } from "react-router";
import { rememberedLately } from "~/lib/remembered-lately";

/**
 * Markdown from the content editor, as styled prose. Raw HTML in the source is dropped (never rendered), and links
 * with unsafe protocols (javascript: and the like) lose their target. The page's own h1 is the title, so headings in
 * the body start at h2.
 */
export function Markdown({ children, className = "" }: { children: string; className?: string }) {
  return (
    <div className={`text-base text-slate-700 [&>:first-child]:mt-0 [&>:last-child]:mb-0 ${className}`}>
      {prose(children)}
    </div>
  );
}

/**
 * A source's elements, made once for as long as it is asked for: parsing it was half the render of a content page,
 * and its source changes only when an admin saves it. react-markdown's `Markdown` is a plain function of its props
 * (no hooks), and React elements may be rendered any number of times.
 */
const prose = rememberedLately(
  (source) => markdownToElements({ children: source, skipHtml: true, components }),
  64,
);

/** react-markdown hands every component its syntax-tree node; it is not an attribute for the DOM. */
type Props<Tag extends keyof React.JSX.IntrinsicElements> = ComponentProps<Tag> & { node?: unknown };

const heading2 = "mt-10 mb-4 scroll-mt-24 text-2xl font-bold tracking-tight text-ink-900";
const heading3 = "mt-8 mb-3 scroll-mt-24 text-xl font-semibold text-ink-900";
const heading4 = "mt-6 mb-2 text-lg font-semibold text-ink-900";

const components: Components = {
  h1: ({ node: _node, children, ...props }: Props<"h2">) => (
    <h2 {...props} className={heading2}>
      {children}
    </h2>
  ),
  h2: ({ node: _node, children, ...props }: Props<"h2">) => (
    <h2 {...props} className={heading2}>
      {children}
    </h2>
  ),
  h3: ({ node: _node, children, ...props }: Props<"h3">) => (
    <h3 {...props} className={heading3}>
      {children}
    </h3>
  ),
  h4: ({ node: _node, children, ...props }: Props<"h4">) => (
    <h4 {...props} className={heading4}>
      {children}
    </h4>
  ),
  h5: ({ node: _node, children, ...props }: Props<"h5">) => (
    <h5 {...props} className={heading4}>
      {children}
    </h5>
  ),
  h6: ({ node: _node, children, ...props }: Props<"h6">) => (
    <h6 {...props} className={heading4}>
      {children}
    </h6>
  ),
  p: ({ node: _node, ...props }: Props<"p">) => <p {...props} className="my-4 leading-7" />,
  ul: ({ node: _node, ...props }: Props<"ul">) => (
    <ul {...props} className="my-4 list-disc space-y-2 pl-6 marker:text-brand-600" />
  ),
  ol: ({ node: _node, ...props }: Props<"ol">) => (
    <ol {...props} className="my-4 list-decimal space-y-2 pl-6 marker:font-semibold marker:text-slate-500" />
  ),
  li: ({ node: _node, ...props }: Props<"li">) => <li {...props} className="pl-1 leading-7" />,
  strong: ({ node: _node, ...props }: Props<"strong">) => (
    <strong {...props} className="font-semibold text-ink-900" />
  ),
  em: ({ node: _node, ...props }: Props<"em">) => <em {...props} className="italic" />,
  blockquote: ({ node: _node, ...props }: Props<"blockquote">) => (
    <blockquote {...props} className="my-6 border-l-4 border-brand-200 pl-4 text-slate-600 italic" />
  ),
  hr: ({ node: _node, ...props }: Props<"hr">) => <hr {...props} className="my-10 border-slate-200" />,
  code: ({ node: _node, ...props }: Props<"code">) => (
    <code {...props} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[0.9em] text-ink-800" />
  ),
  pre: ({ node: _node, ...props }: Props<"pre">) => (
    // tabIndex: a code block wider than the page scrolls sideways, and a keyboard user must be able to do it.
    <pre
      {...props}
      tabIndex={0}
      className="my-6 overflow-x-auto rounded-lg bg-slate-100 p-4 text-sm [&>code]:bg-transparent [&>code]:p-0"
    />
  ),
  img: ({ node: _node, alt, ...props }: Props<"img">) => (
    <img {...props} alt={alt ?? ""} loading="lazy" className="my-6 h-auto max-w-full rounded-lg" />
  ),
  a: ({ node: _node, href, children, ...props }: Props<"a">) => {
    const className =
      "font-medium text-brand-700 underline decoration-brand-300 underline-offset-2 hover:text-brand-800 hover:decoration-brand-700";
    // Links inside the store navigate without a full page load.
    if (href && href.startsWith("/") && !href.startsWith("//")) {
      return (
        <Link {...props} to={href} className={className}>
          {children}
        </Link>
      );
    }
    const external = href ? /^https?:\/\//i.test(href) : false;
    return (
      <a {...props} href={href} className={className} rel={external ? "noopener noreferrer" : undefined}>
        {children}
      </a>
    );
  },
};
