import type { MetaDescriptor } from "react-router";
import type { PageSeo } from "./seo.server";

/** Meta tags for a page from its loader's `seo`: title, description, keywords, canonical, Open Graph, X's card, JSON-LD. */
export function pageMeta(seo: PageSeo | undefined): MetaDescriptor[] {
  if (!seo) return [{ title: "Default Title" }];
  const tags: MetaDescriptor[] = [
    { title: seo.title },
    { tagName: "link", rel: "canonical", href: seo.canonical },
    { property: "og:title", content: seo.title },
    { property: "og:type", content: seo.type },
    { property: "og:url", content: seo.canonical },
  ];
  if (seo.description) {
    tags.push(
      { name: "description", content: seo.description },
      { property: "og:description", content: seo.description },
    );
  }
  if (seo.keywords) tags.push({ name: "keywords", content: seo.keywords });
  tags.push({ property: "og:site_name", content: seo.siteName });
  const { image } = seo;
  if (image) {
    tags.push({ property: "og:image", content: image.url }, { property: "og:image:alt", content: image.alt });
    if (image.width && image.height) {
      tags.push(
        { property: "og:image:width", content: String(image.width) },
        { property: "og:image:height", content: String(image.height) },
      );
    }
  }
  // A wide picture is shown large; a square one (a product's) beside the title, uncropped.
  const wide = !!image?.width && !!image.height && image.width >= 1.9 * image.height;
  tags.push({ name: "twitter:card", content: wide ? "summary_large_image" : "summary" });
  if (seo.jsonLd) tags.push({ "script:ld+json": seo.jsonLd });
  return tags;
}

/** Kept out of search engines: a page about one visitor (their account, their order) or a form of theirs. */
export const NO_INDEX: MetaDescriptor = { name: "robots", content: "noindex" };

/** The tags of such a page: its own, and not to be indexed. */
export function privatePageMeta(seo: PageSeo | undefined): MetaDescriptor[] {
  return [...pageMeta(seo), NO_INDEX];
}
