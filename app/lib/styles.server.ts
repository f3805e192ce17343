/**
 * The store's stylesheet (Tailwind, built by Vite like any CSS) as text, for the server to write into each page
 * (app/lib/inline-styles.tsx). The browser never asks for a stylesheet.
 */
import css from "~/app.css?inline";

// "</style" can only be in a CSS string or comment, where "<\/style" means the same and does not end the element.
export const STYLESHEET: string = css.replaceAll("</style", "<\\/style");
