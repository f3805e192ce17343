/** The five admin lists of the spec, by the names they are cached under in the browser's local storage. */
export const ADMIN_LIST_KEYS = ["_user", "_orders", "_blogs", "banners", "seo_metadata"] as const;
export type AdminListKey = (typeof ADMIN_LIST_KEYS)[number];

/** The admin hint in local storage: it grants nothing (the server checks the session on every request). */
export const ADMIN_STORAGE_KEY = "admin";
export const SELECTED_BLOG_KEY = "selectedBlog";
