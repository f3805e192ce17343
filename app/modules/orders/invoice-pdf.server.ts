import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import PDFDocument from "pdfkit";
import { addressLines } from "~/lib/address";
import { formatMoney } from "~/lib/money";
import { DOCUMENT_TITLES, type DocumentLine, type DocumentSnapshot, formatRate } from "./invoice-document";

/**
 * The PDF of an invoice or credit note, made from its snapshot alone with pdfkit: A4, the store and the document's
 * number at the top, buyer and order details, the rows with their discount and tax, the totals and the tax per rate.
 *
 * Text is set in Noto Sans, a TrueType font installed with the project's npm packages (nothing is fetched at run
 * time) and embedded in each file as a subset. It covers Latin, Greek, Cyrillic and Devanagari, shaped as each
 * script needs, so a buyer's name in Hindi prints as well as one in German.
 */

const FONT_FILES = {
  regular: "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf",
  bold: "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf",
};

let fonts: { regular: Buffer; bold: Buffer } | undefined;

/** The font files, read once per process from the installed package. */
function loadFonts() {
  const require = createRequire(import.meta.url);
  fonts ??= {
    regular: readFileSync(require.resolve(FONT_FILES.regular)),
    bold: readFileSync(require.resolve(FONT_FILES.bold)),
  };
  return fonts;
}

const COLORS = { ink: "#0f172a", muted: "#475569", rule: "#cbd5e1", accent: "#c2410c", band: "#f1f5f9" };
const PAGE = { margin: 48, width: 595.28, height: 841.89 };
const RIGHT = PAGE.width - PAGE.margin;
const CONTENT = RIGHT - PAGE.margin;

type Style = { size?: number; bold?: boolean; color?: string; align?: "left" | "right" };

/** A date as printed: "November 25, 2025" (UTC, the store's clock). */
const printDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

class Writer {
  readonly doc: PDFKit.PDFDocument;

  constructor(snapshot: DocumentSnapshot) {
    const title = `${DOCUMENT_TITLES[snapshot.kind]} ${snapshot.number}`;
    this.doc = new PDFDocument({
      size: "A4",
      margin: PAGE.margin,
      bufferPages: true,
      info: {
        Title: title,
        Author: snapshot.seller.name,
        Subject: `${title}, order #${snapshot.order.number}`,
        CreationDate: new Date(snapshot.issuedAt),
      },
    });
    const loaded = loadFonts();
    this.doc.registerFont("regular", loaded.regular);
    this.doc.registerFont("bold", loaded.bold);
  }

  /** Writes text at (x, y) within a width; returns the y below it. */
  text(text: string, x: number, y: number, width: number, style: Style = {}): number {
    const { size = 9, bold = false, color = COLORS.ink, align = "left" } = style;
    if (text === "") return y;
    this.doc
      .font(bold ? "bold" : "regular")
      .fontSize(size)
      .fillColor(color)
      .text(text, x, y, { width, align, lineGap: 1 });
    return this.doc.y;
  }

  /** Several lines, one under the other; returns the y below the last. */
  lines(lines: string[], x: number, y: number, width: number, style: Style = {}): number {
    return lines.reduce((top, line) => this.text(line, x, top, width, style), y);
  }

  rule(y: number, color = COLORS.rule, from = PAGE.margin) {
    this.doc.moveTo(from, y).lineTo(RIGHT, y).lineWidth(0.6).strokeColor(color).stroke();
  }

  /** Starts a new page when less than `height` is left on this one; returns where to write. */
  room(y: number, height: number): { y: number; newPage: boolean } {
    if (y + height <= PAGE.height - PAGE.margin - 24) return { y, newPage: false };
    this.doc.addPage();
    return { y: PAGE.margin, newPage: true };
  }
}

/** The rows' columns: where each starts and how wide it is. */
const COLUMNS = [
  { key: "description", label: "Description", width: 165, align: "left" },
  { key: "quantity", label: "Qty", width: 28, align: "right" },
  { key: "unit", label: "Unit price", width: 62, align: "right" },
  { key: "discount", label: "Discount", width: 58, align: "right" },
  { key: "rate", label: "Tax rate", width: 62, align: "right" },
  { key: "tax", label: "Tax", width: 57, align: "right" },
  { key: "total", label: "Total", width: CONTENT - 165 - 28 - 62 - 58 - 62 - 57, align: "right" },
] as const;
const GAP = 6;
const columnX = (index: number) =>
  PAGE.margin + COLUMNS.slice(0, index).reduce((sum, column) => sum + column.width, 0);

const taxRates = (row: DocumentLine) =>
  row.taxes.length > 0
    ? row.taxes.map((tax) => `${tax.name} ${formatRate(tax.rateBasisPoints)}`)
    : [row.taxCents > 0 ? "" : "—"];

function header(writer: Writer, snapshot: DocumentSnapshot): number {
  const { seller } = snapshot;
  const split = PAGE.margin + CONTENT * 0.58;
  let left = writer.text(seller.name, PAGE.margin, PAGE.margin, split - PAGE.margin - 12, {
    size: 15,
    bold: true,
  });
  left = writer.lines(
    [
      ...seller.offices.map((office) => `${office.label}: ${office.address}`),
      [seller.email, seller.phone].filter(Boolean).join(" · "),
      ...seller.taxRegistrations.map(
        (registration) =>
          `${registration.label} ${registration.number}${
            registration.regions.length > 0 ? ` (${registration.regions.join(", ")})` : ""
          }`,
      ),
    ].filter(Boolean),
    PAGE.margin,
    left + 2,
    split - PAGE.margin - 12,
    { size: 8, color: COLORS.muted },
  );
  const width = RIGHT - split;
  let right = writer.text(DOCUMENT_TITLES[snapshot.kind].toUpperCase(), split, PAGE.margin, width, {
    size: 18,
    bold: true,
    color: COLORS.accent,
    align: "right",
  });
  right = writer.text(snapshot.number, split, right, width, { size: 11, bold: true, align: "right" });
  right = writer.lines(
    [
      `Date: ${printDate(snapshot.issuedAt)}`,
      `Order #${snapshot.order.number} of ${printDate(snapshot.order.placedAt)}`,
      ...(snapshot.credit
        ? [
            `Credits invoice ${snapshot.credit.invoiceNumber} of ${printDate(snapshot.credit.invoiceIssuedAt)}`,
          ]
        : []),
    ],
    split,
    right + 2,
    width,
    { size: 8.5, color: COLORS.muted, align: "right" },
  );
  const bottom = Math.max(left, right) + 14;
  writer.rule(bottom);
  return bottom + 12;
}

function parties(writer: Writer, snapshot: DocumentSnapshot, top: number): number {
  const { buyer } = snapshot;
  const third = CONTENT / 3;
  const heading = (text: string, x: number) =>
    writer.text(text.toUpperCase(), x, top, third - 12, { size: 7.5, bold: true, color: COLORS.muted });
  let billed = writer.text(
    buyer.name || buyer.email,
    PAGE.margin,
    heading("Bill to", PAGE.margin),
    third - 12,
    {
      bold: true,
    },
  );
  billed = writer.lines(
    [...addressLines(buyer.address), buyer.email, ...(buyer.taxId ? [`Tax ID: ${buyer.taxId}`] : [])],
    PAGE.margin,
    billed,
    third - 12,
    { size: 8.5 },
  );
  let shipped = top;
  if (snapshot.shipTo) {
    const x = PAGE.margin + third;
    shipped = writer.text(snapshot.shipTo.name, x, heading("Ship to", x), third - 12, { bold: true });
    shipped = writer.lines(addressLines(snapshot.shipTo), x, shipped, third - 12, { size: 8.5 });
  }
  const x = PAGE.margin + 2 * third;
  let details = writer.lines(
    [
      `Payment: ${snapshot.paymentMethod}`,
      ...(snapshot.order.paidAt ? [`Paid: ${printDate(snapshot.order.paidAt)}`] : []),
      `Currency: ${snapshot.currency}`,
      snapshot.pricesIncludeTax ? "Prices include tax" : "Prices exclude tax",
    ],
    x,
    heading("Details", x),
    third,
    { size: 8.5 },
  );
  if (snapshot.credit?.reason)
    details = writer.text(`Reason: ${snapshot.credit.reason}`, x, details, third, { size: 8.5 });
  return Math.max(billed, shipped, details) + 18;
}

function tableHead(writer: Writer, top: number): number {
  writer.doc.rect(PAGE.margin, top - 4, CONTENT, 18).fill(COLORS.band);
  COLUMNS.forEach((column, index) =>
    writer.text(column.label, columnX(index) + (index === 0 ? 4 : 0), top, column.width - GAP, {
      size: 7.5,
      bold: true,
      color: COLORS.muted,
      align: column.align,
    }),
  );
  return top + 20;
}

function rows(writer: Writer, snapshot: DocumentSnapshot, top: number): number {
  let y = tableHead(writer, top);
  const all = [...snapshot.lines, ...(snapshot.shipping ? [snapshot.shipping] : [])];
  for (const row of all) {
    const rates = taxRates(row);
    const estimate =
      Math.max(
        writer.doc
          .font("regular")
          .fontSize(9)
          .heightOfString(row.description, {
            width: COLUMNS[0].width - GAP - 4,
          }),
        rates.length * 12,
      ) + 10;
    const room = writer.room(y, estimate);
    y = room.newPage ? tableHead(writer, room.y) : room.y;
    const cells: Array<string[]> = [
      [row.description],
      [String(row.quantity)],
      [formatMoney(row.unitPriceCents, snapshot.currency)],
      [row.discountCents > 0 ? formatMoney(-row.discountCents, snapshot.currency) : "—"],
      rates,
      [formatMoney(row.taxCents, snapshot.currency)],
      [formatMoney(row.totalCents, snapshot.currency)],
    ];
    const bottom = Math.max(
      ...cells.map((lines, index) =>
        writer.lines(
          lines,
          columnX(index) + (index === 0 ? 4 : 0),
          y,
          COLUMNS[index]!.width - GAP - (index === 0 ? 4 : 0),
          {
            align: COLUMNS[index]!.align,
            bold: index === 6,
          },
        ),
      ),
    );
    y = bottom + 5;
    writer.rule(y - 2, COLORS.band);
    y += 4;
  }
  return y + 6;
}

function totals(writer: Writer, snapshot: DocumentSnapshot, top: number): number {
  const { totals: sums, pricesIncludeTax } = snapshot;
  const credit = snapshot.kind === "credit_note";
  const entries: Array<[string, string, boolean?]> = [
    ["Subtotal", formatMoney(sums.subtotalCents, snapshot.currency)],
  ];
  if (sums.discountCents > 0)
    entries.push([
      `Discount${snapshot.discountCode ? ` (${snapshot.discountCode})` : ""}`,
      formatMoney(-sums.discountCents, snapshot.currency),
    ]);
  if (snapshot.shipping || (snapshot.shipTo && !credit))
    entries.push([
      "Shipping",
      sums.shippingCents === 0 ? "Free" : formatMoney(sums.shippingCents, snapshot.currency),
    ]);
  if (!pricesIncludeTax) entries.push(["Tax", formatMoney(sums.taxCents, snapshot.currency)]);
  entries.push([credit ? "Total credited" : "Total", formatMoney(sums.totalCents, snapshot.currency), true]);
  if (pricesIncludeTax) entries.push(["Includes tax", formatMoney(sums.taxCents, snapshot.currency)]);
  let y = writer.room(top, entries.length * 15 + 10).y;
  const labelX = PAGE.margin + CONTENT * 0.5;
  for (const [label, value, strong] of entries) {
    if (strong) {
      writer.rule(y - 3, COLORS.rule, labelX);
      y += 2;
    }
    const size = strong ? 11 : 9;
    writer.text(label, labelX, y, CONTENT * 0.3, { size, bold: strong });
    y =
      writer.text(value, labelX + CONTENT * 0.3, y, CONTENT * 0.2, { size, bold: strong, align: "right" }) +
      3;
  }
  return y + 12;
}

function taxSummary(writer: Writer, snapshot: DocumentSnapshot, top: number): number {
  if (snapshot.taxes.length === 0) return top;
  let y = writer.room(top, 30 + snapshot.taxes.length * 13).y;
  y = writer.text("Tax by rate", PAGE.margin, y, CONTENT, { size: 9, bold: true }) + 3;
  const columns: Array<[string, number, "left" | "right"]> = [
    ["Tax", 140, "left"],
    ["Rate", 60, "right"],
    ["Taxed amount", 100, "right"],
    ["Amount", 90, "right"],
  ];
  const row = (cells: string[], style: Style) => {
    let x = PAGE.margin;
    const bottoms = cells.map((cell, index) => {
      const [, width, align] = columns[index]!;
      const bottom = writer.text(cell, x, y, width - GAP, { ...style, align });
      x += width;
      return bottom;
    });
    y = Math.max(...bottoms) + 3;
  };
  row(
    columns.map(([label]) => label),
    { size: 7.5, bold: true, color: COLORS.muted },
  );
  for (const tax of snapshot.taxes)
    row(
      [
        tax.name,
        formatRate(tax.rateBasisPoints),
        formatMoney(tax.taxableCents, snapshot.currency),
        formatMoney(tax.taxCents, snapshot.currency),
      ],
      {},
    );
  return y + 12;
}

function closing(writer: Writer, snapshot: DocumentSnapshot, top: number) {
  const text = snapshot.credit
    ? `This credit note corrects invoice ${snapshot.credit.invoiceNumber}: ${formatMoney(snapshot.totals.totalCents, snapshot.currency)} goes back to the buyer the way they paid.`
    : `Thank you for your order. Questions about this invoice: ${snapshot.seller.email || snapshot.seller.name}.`;
  const y = writer.room(top, 30).y;
  writer.text(text, PAGE.margin, y, CONTENT, { size: 8.5, color: COLORS.muted });
}

/** Every page's foot: the seller, the document's number and "Page 1 of 2". */
function footers(writer: Writer, snapshot: DocumentSnapshot) {
  const { doc } = writer;
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    // The foot sits in the bottom margin: without this pdfkit would start a new page to write it.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - PAGE.margin + 14;
    writer.text(`${snapshot.seller.name} · ${snapshot.number}`, PAGE.margin, y, CONTENT * 0.7, {
      size: 7.5,
      color: COLORS.muted,
    });
    writer.text(
      `Page ${index - range.start + 1} of ${range.count}`,
      PAGE.margin + CONTENT * 0.7,
      y,
      CONTENT * 0.3,
      {
        size: 7.5,
        color: COLORS.muted,
        align: "right",
      },
    );
    doc.page.margins.bottom = margin;
  }
}

/** The document's PDF, made from its snapshot. */
export async function renderDocumentPdf(snapshot: DocumentSnapshot): Promise<Buffer> {
  const writer = new Writer(snapshot);
  const chunks: Buffer[] = [];
  writer.doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    writer.doc.on("end", resolve);
    writer.doc.on("error", reject);
  });
  let y = header(writer, snapshot);
  y = parties(writer, snapshot, y);
  y = rows(writer, snapshot, y);
  y = totals(writer, snapshot, y);
  y = taxSummary(writer, snapshot, y);
  closing(writer, snapshot, y);
  footers(writer, snapshot);
  writer.doc.end();
  await finished;
  return Buffer.concat(chunks);
}
