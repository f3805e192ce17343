/** The CSV product and variant imports' limits and columns, shared by the import page and the importers. */

/** Largest CSV the import reads: about 5,000 products with long descriptions. */
export const IMPORT_MAX_BYTES = 1024 * 1024;
/** Most product rows in one import; one transaction writes them all. */
export const IMPORT_MAX_ROWS = 5000;
/** Largest licence-key file, or pasted list, one key import reads: about 20,000 keys. */
export const KEY_IMPORT_MAX_BYTES = 1024 * 1024;

export type ProductField =
  | "groupKey"
  | "externalId"
  | "name"
  | "description"
  | "price"
  | "originalPrice"
  | "inrPrice"
  | "categories"
  | "img"
  | "route"
  | "specifications"
  | "hidden"
  | "stock"
  | "waitingOrders";

export type CsvColumn<Field extends string = ProductField> = {
  field: Field;
  /** The header the store's own example and export use. */
  header: string;
  /** Other headers read as this column (compared in lower case, spaces, dashes and underscores ignored). */
  aliases: string[];
  required: boolean;
  help: string;
};

export const PRODUCT_CSV_COLUMNS: CsvColumn[] = [
  {
    field: "groupKey",
    header: "group",
    aliases: ["groupkey", "brand", "brandgroup"],
    required: true,
    help: "Brand group key, e.g. Norton or hp",
  },
  {
    field: "externalId",
    header: "id",
    aliases: ["externalid", "productid"],
    required: false,
    help: "The product's id within its group; empty: the product at the row's route, or a new id from it",
  },
  { field: "name", header: "name", aliases: ["productname", "title"], required: true, help: "Product name" },
  {
    field: "route",
    header: "route",
    aliases: ["path", "address", "url"],
    required: true,
    help: "Page address, e.g. /antivirus/norton/360-deluxe",
  },
  { field: "price", header: "price", aliases: [], required: true, help: "Price like 49.99" },
  {
    field: "originalPrice",
    header: "originalPrice",
    aliases: ["originalprice", "listprice", "compareatprice"],
    required: false,
    help: "Price before the discount; empty: no discount",
  },
  {
    field: "inrPrice",
    header: "inrPrice",
    aliases: ["priceinr", "rupeeprice", "pricerupees"],
    required: false,
    help: "Your own price in rupees, like 4199.00; empty: the dollar price at the store's rate",
  },
  {
    field: "description",
    header: "description",
    aliases: ["desc"],
    required: true,
    help: "Description shown on the product page",
  },
  {
    field: "img",
    header: "image",
    aliases: ["img", "imageurl"],
    required: true,
    help: "Image address: a site path or https:// URL",
  },
  {
    field: "categories",
    header: "categories",
    aliases: ["category", "tags"],
    required: false,
    help: "Tags separated by commas, e.g. best-seller, top-rated",
  },
  {
    field: "specifications",
    header: "specifications",
    aliases: ["specs"],
    required: false,
    help: '"Label: value" lines in one cell',
  },
  {
    field: "hidden",
    header: "hidden",
    aliases: [],
    required: false,
    help: "true to keep the product off the storefront (yes/no, 1/0 work too)",
  },
  {
    field: "stock",
    header: "stock",
    aliases: ["stockcount", "quantity", "onhand", "inventory"],
    required: false,
    help: "Printers and routers: units on hand not yet ordered; empty: not counted. Software: leave empty",
  },
  {
    field: "waitingOrders",
    header: "backorders",
    aliases: ["backorder", "waitingorders", "allowbackorders"],
    required: false,
    help: "yes: take orders when out of stock (they wait); no: show it as unavailable; empty: unchanged (new: yes)",
  },
];

/** The import page's example: a software product and a router with its stock and backorders, every column. */
export const PRODUCT_CSV_EXAMPLE = `${PRODUCT_CSV_COLUMNS.map((column) => column.header).join(",")}
Norton,360-premium,Norton 360 Premium,/antivirus/norton/360-premium,79.99,99.99,6499.00,"Protection for 10 devices, with VPN",/placeholder/product/norton-360-premium.svg,"best-seller, top-rated","Operating System: Windows 11
Secure VPN: Yes",false,,yes
tplink,archer-ax10,TP-Link Archer AX10,/router/tplink/archer-ax10,89.99,,,Dual-band Wi-Fi 6 router,/placeholder/product/archer-ax10.svg,,"Wi-Fi Standard: Wi-Fi 6
Speed: 1.5 Gbps",false,12,no`;

export type VariantField =
  | "route"
  | "sku"
  | "label"
  | "price"
  | "originalPrice"
  | "inrPrice"
  | "termMonths"
  | "stock"
  | "hidden"
  | "position";

/**
 * A variants file: one variant per row, matched by SKU in any case; a new SKU adds a variant to the product at the
 * row's route. The export writes these columns in this order.
 */
export const VARIANT_CSV_COLUMNS: CsvColumn<VariantField>[] = [
  {
    field: "route",
    header: "route",
    aliases: ["productroute", "path", "address", "url"],
    required: true,
    help: "The product's page address, e.g. /antivirus/bitdefender/total-security",
  },
  {
    field: "sku",
    header: "sku",
    aliases: ["variantsku"],
    required: true,
    help: "The variant's SKU, e.g. BD-TS-1D-1Y: an existing SKU (any case) updates that variant, a new one adds it",
  },
  {
    field: "label",
    header: "label",
    aliases: ["variantlabel"],
    required: true,
    help: "What the shopper chooses, e.g. 1 device, 1 year",
  },
  { field: "price", header: "price", aliases: [], required: true, help: "Price like 49.99" },
  {
    field: "originalPrice",
    header: "originalPrice",
    aliases: ["listprice", "compareatprice"],
    required: false,
    help: "Price before the discount; empty: no discount",
  },
  {
    field: "inrPrice",
    header: "inrPrice",
    aliases: ["priceinr", "rupeeprice", "pricerupees"],
    required: false,
    help: "Your own price in rupees, like 4199.00; empty: the dollar price at the store's rate",
  },
  {
    field: "termMonths",
    header: "term",
    aliases: ["termmonths", "months"],
    required: false,
    help: "Months a key lasts from the payment, 1 to 120; empty: perpetual",
  },
  {
    field: "stock",
    header: "stock",
    aliases: ["stockcount", "quantity", "onhand", "inventory"],
    required: false,
    help: "Printers and routers: units on hand; empty: not counted. Software: leave empty",
  },
  {
    field: "hidden",
    header: "hidden",
    aliases: [],
    required: false,
    help: "true to stop selling and showing the variant (yes/no, 1/0 work too)",
  },
  {
    field: "position",
    header: "position",
    aliases: ["order", "sortorder"],
    required: false,
    help: "Order on the product's page, from 0; empty: last for a new variant, unchanged for one that exists",
  },
];

/** The import page's example of a variants file. */
export const VARIANT_CSV_EXAMPLE = `${VARIANT_CSV_COLUMNS.map((column) => column.header).join(",")}
/antivirus/bitdefender/total-security,BD-TS-1D-1Y,"1 device, 1 year",49.99,69.99,3999.00,12,,false,0
/windows/windows8/pro,WIN8-PRO-OEM,OEM,79.99,109.99,,,,false,1`;

/** What a file holds: products, or variants of products (told apart by its header: a variants file has a sku). */
export type ImportKind = "products" | "variants";

export type ImportRowStatus = "create" | "update" | "unchanged" | "error";

export type ImportRowReport = {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  status: ImportRowStatus;
  name: string;
  route: string;
  /** The product created or updated (after an import), or the one that would be updated; a variant's product. */
  productId?: number;
  /** A variants file's row: the variant's SKU. */
  sku?: string;
  /** Messages by CSV column header; "row" for the row as a whole. */
  errors?: Record<string, string>;
};

export type ImportCounts = Record<ImportRowStatus, number>;

export type ImportReport =
  | {
      ok: true;
      kind: ImportKind;
      /** check: nothing written; import: written when no row failed. */
      mode: "check" | "import";
      imported: boolean;
      rows: ImportRowReport[];
      counts: ImportCounts;
    }
  | { ok: false; error: string };
