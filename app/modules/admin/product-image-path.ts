/** The bucket of the catalogue's images (public: the storefront loads them without a token). */
export const PRODUCT_BUCKET = "products";

/**
 * The object path an uploaded product image gets in the `products` bucket: images/{the file's name, made safe}-{a
 * time suffix}.{extension}, so two uploads of "logo.png" never replace each other.
 */
export function productImagePath(file: { name: string }, now = Date.now()): string {
  const name = file.name.split(/[\\/]/).pop() ?? "";
  const dot = name.lastIndexOf(".");
  const base =
    (dot > 0 ? name.slice(0, dot) : name)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "image";
  const extension =
    dot > 0
      ? name
          .slice(dot + 1)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, "")
          .slice(0, 10)
      : "";
  return `images/${base}-${now.toString(36)}${extension ? `.${extension}` : ""}`;
}
