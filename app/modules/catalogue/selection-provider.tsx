import { createContext, useContext, useEffect, useMemo, useState } from "react";
import { useLocation } from "react-router";
import { storedValue, useStoredValue } from "~/lib/stored-value";
import {
  type BrandWord,
  isNullableString,
  isSelectedProduct,
  type SelectedProduct,
  selectedBrandFor,
} from "./selection";

type Selection = {
  /** From the path, by the spec's brand words. */
  selectedBrand: BrandWord | null;
  /** The product last shown, and its brand group; kept in local storage. */
  selectedProduct: SelectedProduct | null;
  selectedCategory: string | null;
  /** The blog post last opened; kept in local storage. */
  selectedBlog: string | null;
  selectProduct(product: SelectedProduct): void;
  selectBlog(slug: string): void;
  /** The category navigation menu; starts closed and closes on every new page. */
  categoryNavOpen: boolean;
  setCategoryNavOpen(open: boolean): void;
};

const SelectionContext = createContext<Selection | null>(null);

const isNullableProduct = (value: unknown): value is SelectedProduct | null =>
  value === null || isSelectedProduct(value);

export const selectedProductStore = storedValue<SelectedProduct | null>(
  "selectedProduct",
  null,
  isNullableProduct,
);
export const selectedCategoryStore = storedValue<string | null>("selectedCategory", null, isNullableString);
export const selectedBlogStore = storedValue<string | null>("selectedBlog", null, isNullableString);

export function SelectionProvider({ children }: { children: React.ReactNode }) {
  const { pathname } = useLocation();
  const selectedProduct = useStoredValue(selectedProductStore, null);
  const selectedCategory = useStoredValue(selectedCategoryStore, null);
  const selectedBlog = useStoredValue(selectedBlogStore, null);
  // Open for the page it was opened on only.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);

  const value = useMemo<Selection>(
    () => ({
      selectedBrand: selectedBrandFor(pathname),
      selectedProduct,
      selectedCategory,
      selectedBlog,
      selectProduct(product) {
        selectedProductStore.set(product);
        selectedCategoryStore.set(product.groupKey);
      },
      selectBlog: (slug) => selectedBlogStore.set(slug),
      categoryNavOpen: menuOpenOn === pathname,
      setCategoryNavOpen: (open) => setMenuOpenOn(open ? pathname : null),
    }),
    [pathname, selectedProduct, selectedCategory, selectedBlog, menuOpenOn],
  );
  return <SelectionContext.Provider value={value}>{children}</SelectionContext.Provider>;
}

export function useSelection(): Selection {
  const selection = useContext(SelectionContext);
  if (!selection) throw new Error("useSelection needs a SelectionProvider");
  return selection;
}

/** On a product page: that product becomes the shown product and its group the selected group. */
export function useShowProduct(product: SelectedProduct) {
  const { groupKey, id, name, route } = product;
  useEffect(() => {
    selectedProductStore.set({ groupKey, id, name, route });
    selectedCategoryStore.set(groupKey);
  }, [groupKey, id, name, route]);
}
