import { companyDetails, webInfo } from "~db/schema";
import type { ServerContext } from "~/context";
import { fromSnapshot } from "./snapshot.server";

export type CompanyPhone = { phone: string; phonecall: string };

/** The company-details record's phone; null when there is no record. A failed read throws. */
export async function readCompanyPhone({ db }: Pick<ServerContext, "db">): Promise<CompanyPhone | null> {
  const [row] = await db
    .select({ phone: companyDetails.phone, phonecall: companyDetails.phonecall })
    .from(companyDetails)
    .limit(1);
  return row ?? null;
}

/**
 * The phone shown in header and footer, in local and international format (read by `read`: the database, or the
 * public data snapshot). A missing record or a failed read leaves both empty: the visitor sees no error, the
 * operator gets a log line.
 */
export async function getCompanyPhone(
  context: Pick<ServerContext, "db" | "logger">,
  read: () => Promise<CompanyPhone | null> = () => readCompanyPhone(context),
): Promise<CompanyPhone> {
  try {
    const row = await read();
    if (!row) {
      context.logger.warn("No such document!");
      return { phone: "", phonecall: "" };
    }
    return row;
  } catch (error) {
    context.logger.error({ err: error }, "Error fetching TFN");
    return { phone: "", phonecall: "" };
  }
}

export async function getWebInfo({ db }: Pick<ServerContext, "db">) {
  const [row] = await db.select().from(webInfo).limit(1);
  return row ?? null;
}

export type Office = { label: string; address: string };

/** The USA office (web info address2) and the India office (address), those that are set. */
export function officesOf(info: { address: string; address2: string } | null): Office[] {
  const offices: Office[] = [
    { label: "USA office", address: info?.address2 ?? "" },
    { label: "India office", address: info?.address ?? "" },
  ];
  return offices.filter((office) => office.address.trim() !== "");
}

export type ContactDetails = {
  storeName: string;
  phone: CompanyPhone;
  email: string;
  /** The USA office (web info address2) and the India office (address), those that are set. */
  offices: Office[];
};

/** The store's contact block (contact and about pages): phone from company details, the rest from the web info. */
export async function getContactDetails(
  context: Pick<ServerContext, "db" | "logger"> & Partial<Pick<ServerContext, "contentVersion">>,
): Promise<ContactDetails> {
  const [phone, info] = await Promise.all([
    getCompanyPhone(context, () => fromSnapshot(context, "company-phone", () => readCompanyPhone(context))),
    fromSnapshot(context, "web-info", () => getWebInfo(context)),
  ]);
  return {
    storeName: info?.name ?? "Storefront",
    phone,
    email: info?.email ?? "",
    offices: officesOf(info),
  };
}
