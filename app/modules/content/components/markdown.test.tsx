import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const render = (source: string) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <Markdown>{source}</Markdown>
    </MemoryRouter>,
  );

describe("Markdown", () => {
  it("renders headings, lists, emphasis and links as styled elements, starting the body's headings at h2", () => {
    const html = render(
      "# Title\n\n## Section\n\nSome **bold** text.\n\n- one\n- two\n\n1. first\n\n[Shipping](/shipping-policy) and [Example](https://example.com)",
    );
    expect(html).not.toContain("<h1");
    expect(html).toMatch(/<h2 class="[^"]*text-2xl[^"]*">Title<\/h2>/);
    expect(html).toMatch(/<h2 class="[^"]*">Section<\/h2>/);
    expect(html).toMatch(/<strong class="[^"]*font-semibold[^"]*">bold<\/strong>/);
    expect(html).toMatch(/<ul class="[^"]*list-disc[^"]*">\s*<li class="[^"]*">one<\/li>/);
    expect(html).toMatch(/<ol class="[^"]*list-decimal[^"]*">/);
    expect(html).toContain('href="/shipping-policy"');
    expect(html).toMatch(
      /href="https:\/\/example.com" [^>]*rel="noopener noreferrer"|rel="noopener noreferrer"[^>]*href="https:\/\/example.com"/,
    );
    // react-markdown hands its components a syntax-tree node; it must not reach the DOM.
    expect(html).not.toContain("node=");
  });

  it("drops raw HTML and neutralises unsafe links", () => {
    const html = render(
      'Hello <script>alert(1)</script><img src=x onerror="alert(2)"> <b>bold</b>\n\n<iframe src="https://evil.example"></iframe>\n\n[click](javascript:alert(3))',
    );
    expect(html).not.toMatch(/<script|<img|<iframe|<b>|onerror/);
    expect(html).not.toContain("javascript:");
    expect(html).toContain("Hello");
    expect(html).toContain(">click</a>");
  });

  it("shows each source as it is now, however often and in whatever order sources come (each is made once)", () => {
    const [before, after] = ["## Opening hours\n\nMonday to Friday", "## Opening hours\n\nEvery day"];
    const first = render(before);
    expect(first).toContain("Monday to Friday");
    expect(render(after)).toContain("Every day");
    expect(render(after)).not.toContain("Monday");
    expect(render(before)).toBe(first);
    // Past the sources it remembers, older ones are made again, the same.
    for (let n = 0; n < 100; n++) expect(render(`Page ${n}`)).toContain(`Page ${n}`);
    expect(render(before)).toBe(first);
  });
});
