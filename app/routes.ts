import { type RouteConfig, index, route } from "@react-router/dev/routes";

/** Same module under several paths; each needs an id of its own. */
const alias = (path: string, file: string) => route(path, file, { id: `${file}:${path}` });

export default [
  index("routes/home.tsx", { id: "home-index" }),
  route("home", "routes/home.tsx"),

  // Information and policy pages: editable Markdown content.
  ...[
    "about",
    "disclaimer",
    "termsandconditions",
    "privacypolicy",
    "returnandrefundpolicy",
    "shipping-policy",
  ].map((slug) => alias(slug, "routes/content-page.tsx")),
  route("contact", "routes/contact.tsx"),

  // Sections, listings and search.
  ...["antivirus", "windows", "printer", "router"].map((section) => alias(section, "routes/section.tsx")),
  route("digital", "routes/digital.tsx"),
  route("digital/:service", "routes/digital-service.tsx"),
  ...["best-sellers", "top-rated"].map((listing) => alias(listing, "routes/listing.tsx")),
  route("categories", "routes/categories.tsx"),
  route("search", "routes/search.tsx"),
  route("support/:brand", "routes/support.tsx"),

  // Pages announced for later: header, one page, footer.
  ...["antivirus/future-brand", "some/future-page"].map((path) => alias(path, "routes/future-page.tsx")),

  // The external blog.
  ...["blog/*", "blogs/*"].map((path) => alias(path, "routes/blog-redirect.tsx")),

  // Customer accounts: sign-in and the signed-in customer's pages.
  route("user", "routes/user.tsx"),
  route("user/login", "routes/user.login.tsx"),
  route("user/logout", "routes/user.logout.tsx"),
  route("user/reset-password", "routes/user.reset-password.tsx"),
  route("user/dashboard", "routes/user.dashboard.tsx"),
  route("user/orders", "routes/user.orders.tsx"),
  route("user/licences", "routes/user.licences.tsx"),
  // A verified buyer's review of a product they bought (the product page links here; it never shows the form).
  route("user/reviews/:productId", "routes/user.review.tsx"),
  route("user/address", "routes/user.address.tsx"),
  route("user/account", "routes/user.account.tsx"),
  // The saved-cart reminder's link back: the saved lines go back in the browser's cart.
  route("user/saved-cart", "routes/user.saved-cart.tsx"),
  route("api/user/events", "routes/api.user-events.tsx"),
  route("api/user/activity", "routes/api.user-activity.tsx"),

  // Cart, checkout and orders.
  route("cart", "routes/cart.tsx"),
  route("payment", "routes/payment.tsx"),
  route("order/lookup", "routes/order-lookup.tsx"),
  route("order/:number", "routes/order.tsx"),
  // An order's invoice (invoice.pdf) and credit notes (CN-000007.pdf): files, for its buyer only.
  route("order/:number/documents/:file", "routes/order-document.tsx"),
  route("api/cart/quote", "routes/api.cart-quote.tsx"),
  // A signed-in customer's browser tells the store its cart, for the saved-cart reminder.
  route("api/cart/saved", "routes/api.cart-saved.tsx"),
  route("api/stripe/webhook", "routes/api.stripe-webhook.tsx"),
  // The renewal reminders' unsubscribe link (a signed token, no sign-in).
  route("reminders/unsubscribe", "routes/reminders.unsubscribe.tsx"),
  route("reminders/saved-cart", "routes/reminders.saved-cart.tsx"),
  // Back-in-stock alerts: the product page's form posts here; the e-mails' confirm and stop links (signed tokens).
  route("stock-alerts", "routes/stock-alerts.tsx"),
  route("stock-alerts/confirm", "routes/stock-alerts.confirm.tsx"),
  route("stock-alerts/stop", "routes/stock-alerts.stop.tsx"),

  // A file, not a page (outside the admin block, whose children are all pages): the product list as CSV.

  // CSV downloads of the admin (orders with the list's filters, key pools as hints): files, not pages.
  route("admin/export/:what", "routes/admin.export.tsx"),
  // An order's invoice and credit notes as PDF files, for admins.
  route("admin/orders/:number/documents/:file", "routes/admin.order-document.tsx"),
  // The admin area: /admin signs an admin in, then shows the dashboard; every page checks the admin role itself.
  route("admin", "routes/admin.tsx", [
    index("routes/admin._index.tsx"),
    route("logout", "routes/admin.logout.tsx"),
    route("orders", "routes/admin.orders.tsx"),
    route("orders/:number", "routes/admin.order.tsx"),
    route("invoices", "routes/admin.invoices.tsx"),
    route("products", "routes/admin.products.tsx"),
    route("products/import", "routes/admin.products-import.tsx"),
    route("products/:id", "routes/admin.product.tsx"),
    route("keys", "routes/admin.keys.tsx"),
    route("key-reports", "routes/admin.key-reports.tsx"),
    route("reviews", "routes/admin.reviews.tsx"),
    route("promotions", "routes/admin.promotions.tsx"),
    route("promotions/:id", "routes/admin.promotion.tsx"),
    route("taxes", "routes/admin.taxes.tsx"),
    route("users", "routes/admin.users.tsx"),
    route("users/:id", "routes/admin.user.tsx"),
    route("blogs", "routes/admin.blogs.tsx"),
    route("banners", "routes/admin.banners.tsx"),
    route("seo", "routes/admin.seo.tsx"),
    route("brand-content", "routes/admin.brand-content.tsx"),
    route("brand-content/:key", "routes/admin.brand-content-edit.tsx"),
    route("company", "routes/admin.company.tsx"),
    route("pages", "routes/admin.pages.tsx"),
    route("pages/:slug", "routes/admin.page.tsx"),
    route("messages", "routes/admin.messages.tsx"),
    route("emails", "routes/admin.emails.tsx"),
    route("files", "routes/admin.files.tsx"),
    route("audit", "routes/admin.audit.tsx"),
    route("staff", "routes/admin.staff.tsx"),
    route("account", "routes/admin.account.tsx"),
    route("settings", "routes/admin.settings.tsx"),
  ]),

  route("sitemap.xml", "routes/sitemap.tsx"),
  route("sitemaps/:file", "routes/sitemap-part.tsx"),
  route("robots.txt", "routes/robots.tsx"),
  route("placeholder/:kind/:name", "routes/placeholder.tsx"),

  // Everything else: a product at its own route (case-insensitive), a brand page, or the 404 page.
  route("*", "routes/catalogue-page.tsx"),
] satisfies RouteConfig;
