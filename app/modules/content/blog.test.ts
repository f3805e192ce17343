import { describe, expect, it } from "vitest";
import { blogRedirectTarget } from "./blog";

const target = (path: string, blog = "https://blog.example.com") =>
  blogRedirectTarget(blog, new URL(path, "http://shop.test"));

describe("blog redirect", () => {
  it("keeps the rest of the path and the query string", () => {
    expect(target("/blog/choosing-antivirus?utm_source=home&x=1")).toBe(
      "https://blog.example.com/choosing-antivirus?utm_source=home&x=1",
    );
    expect(target("/blogs/2026/04/post")).toBe("https://blog.example.com/2026/04/post");
    expect(target("/blog")).toBe("https://blog.example.com/");
    expect(target("/blog/a?q=caf%C3%A9")).toBe("https://blog.example.com/a?q=caf%C3%A9");
  });

  it("keeps a path prefix of BLOG_URL", () => {
    expect(target("/blog/post", "https://example.com/news/")).toBe("https://example.com/news/post");
  });

  it("never leaves BLOG_URL's host, whatever the path says", () => {
    for (const path of [
      "/blog//evil.example/x",
      "/blog/%2F%2Fevil.example",
      "/blog/..%2F..%2F",
      "/blog/https:%2F%2Fevil.example",
      "/blog/%5C%5Cevil.example",
      "/blog/@evil.example",
    ]) {
      expect(new URL(target(path)).host).toBe("blog.example.com");
    }
  });
});
