/**
 * The store's stylesheet (Tailwind, built by Vite like any CSS) as text, for the server to write into each page
 * (app/lib/inline-styles.tsx). The browser never asks for a stylesheet.
 */
import css from "~/app.css?inline";

export const STYLESHEET: string = css;
