/** The store's information and policy pages, for the footer and the pages' own side menu. */
export const INFORMATION_LINKS = [
  { to: "/about", label: "About us" },
  { to: "/contact", label: "Contact" },
  { to: "/termsandconditions", label: "Terms and conditions" },
  { to: "/privacypolicy", label: "Privacy policy" },
  { to: "/returnandrefundpolicy", label: "Return and refund policy" },
  { to: "/shipping-policy", label: "Shipping policy" },
  { to: "/disclaimer", label: "Disclaimer" },
] as const;
