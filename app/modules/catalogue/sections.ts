import type { Section } from "~db/schema/catalogue";

export const SECTIONS: Record<Section, { label: string; title: string; path: string; intro: string }> = {
  antivirus: {
    label: "Antivirus",
    title: "Antivirus and security software",
    path: "/antivirus",
    intro:
      "Security suites from twelve leading vendors, delivered as licence keys by e-mail right after payment.",
  },
  windows: {
    label: "Windows",
    title: "Windows licences",
    path: "/windows",
    intro: "Windows 7, 8 and XP editions for the machines and software that still need them.",
  },
  printer: {
    label: "Printers",
    title: "Printers",
    path: "/printer",
    intro: "Laser, inkjet and all-in-one printers from HP, Canon and Epson, shipped to your door.",
  },
  router: {
    label: "Routers",
    title: "Routers and networking",
    path: "/router",
    intro:
      "Wi-Fi routers for homes and business routers for offices, from Netgear, TP-Link, ASUS, D-Link and Cisco.",
  },
};

export const SECTION_ORDER: Section[] = ["antivirus", "windows", "printer", "router"];

/** The brand page of a group: /antivirus/mcafee, /windows/windows7, /printer/hp, /router/cisco. */
export const brandPath = (group: { section: string; slug: string }) => `/${group.section}/${group.slug}`;

export const isSection = (value: string): value is Section => SECTION_ORDER.includes(value as Section);

/** Listing pages: their path, the category tag they show, and their heading. */
export const LISTINGS = {
  "best-sellers": {
    tag: "best-seller",
    title: "Best sellers",
    intro: "The products our customers buy most, across every section of the store.",
  },
  "top-rated": {
    tag: "top-rated",
    title: "Top rated",
    intro: "The products our customers rate highest, from security suites to mesh Wi-Fi.",
  },
} as const;

/** Software is delivered as a licence key; printers and routers are shipped. */
export const isPhysicalSection = (section: Section) => section === "printer" || section === "router";
