import { describe, expect, it } from "vitest";
import { EmailLayout, LineBreaks, renderEmail } from "./layout";

describe("an e-mail's HTML", () => {
  it("is a whole document in the shared layout, headed by the heading it is given", () => {
    const html = renderEmail(
      <EmailLayout heading="Test Store">
        <p>Hello</p>
      </EmailLayout>,
    );
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).toContain(
      '<body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:auto"><h1 style="font-size:20px">Test Store</h1><p>Hello</p></body></html>',
    );
  });

  it("escapes what it is given, in text and in attributes, once", () => {
    const typed = `Ada <script>alert("hi")</script> & O'Brien`;
    const html = renderEmail(
      <EmailLayout heading={typed}>
        <a href={`https://shop.example.com/order/1?token=a&next="<x>"`}>{typed}</a>
      </EmailLayout>,
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("Ada &lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; O&#x27;Brien");
    expect(html).toContain('href="https://shop.example.com/order/1?token=a&amp;next=&quot;&lt;x&gt;&quot;"');
    // Never twice: an & typed as &amp; stays what was typed.
    expect(renderEmail(<p>{"&amp;"}</p>)).toContain("<p>&amp;amp;</p>");
  });

  it("writes line breaks as HTML does, and a <br/> typed as text stays text", () => {
    expect(renderEmail(<LineBreaks lines={["Ada Lovelace", "<br/>", "New York"]} />)).toBe(
      "<!doctype html>Ada Lovelace<br>&lt;br/&gt;<br>New York",
    );
  });
});
