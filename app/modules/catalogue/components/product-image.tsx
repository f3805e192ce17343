import type { ComponentProps } from "react";

/**
 * A product's picture: square (the store's product art is), its alt text the product's name, at the size the layout
 * draws it so the page does not shift while it loads.
 */
export function ProductImage({
  product,
  size,
  ...props
}: { product: { img: string; name: string }; size: number } & Omit<
  ComponentProps<"img">,
  "src" | "alt" | "width" | "height"
>) {
  return <img src={product.img} alt={product.name} width={size} height={size} {...props} />;
}
