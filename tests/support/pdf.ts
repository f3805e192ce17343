import { extractText, getDocumentProxy } from "unpdf";

/** The text of a PDF as a reader's copy and paste would give it, pages joined with spaces (pdf.js, via unpdf). */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const { text } = await extractText(document, { mergePages: true });
  return text.replace(/\s+/g, " ");
}

/** How many pages a PDF has. */
export async function pdfPages(pdf: Uint8Array): Promise<number> {
  return (await getDocumentProxy(new Uint8Array(pdf))).numPages;
}
