import type { MetaDescriptor } from "react-router";
import type { PageSeo } from "./seo.server";

/** Meta tags for a page from its loader's `seo`: title, description, keywords, canonical, Open Graph, JSON-LD. */
export function pageMeta(seo: PageSeo | undefined, siteName?: string): MetaDescriptor[] {
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
  if (seo.image) tags.push({ property: "og:image", content: seo.image });
  if (siteName) tags.push({ property: "og:site_name", content: siteName });
  if (seo.jsonLd) tags.push({ "script:ld+json": seo.jsonLd });
  return tags;
}
