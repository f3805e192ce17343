import { describe, expect, it } from "vitest";
import { fieldErrors } from "./forms";
import { addressLines, addressSchema, townLine } from "./address";
import { savedAddressSchema } from "~/modules/accounts/schemas";

const ada = {
  name: "Ada Lovelace",
  line1: "1 Example Street",
  city: "New York",
  postalCode: "10001",
  country: "US",
};
const errorsOf = (input: Record<string, unknown>) => {
  const parsed = addressSchema.safeParse(input);
  return parsed.success ? {} : fieldErrors(parsed.error);
};

describe("addressSchema's postal code", () => {
  it("takes each country's codes as its post writes them, in capitals and trimmed", () => {
    for (const [country, postalCode] of [
      ["US", " 10001 "],
      ["US", "10001-1234"],
      ["GB", "SW1A 1AA"],
      ["CA", "K1A 0B1"],
      ["DE", "10115"],
      ["NL", "1012 AB"],
      ["JP", "100-0001"],
      ["IN", "110001"],
      ["IN", "110 001"],
      ["NL", "1012 ab"],
      ["IE", "d02 x285"],
      // No postal codes there: whatever is written passes.
      ["AE", "00000"],
    ]) {
      const parsed = addressSchema.safeParse({ ...ada, country, postalCode });
      expect(parsed.success, `${country} ${postalCode}`).toBe(true);
      expect(parsed.data?.postalCode).toBe(postalCode!.trim().toUpperCase());
    }
  });

  it("writes the hyphen the post writes into a code typed as digits only", () => {
    for (const [country, typed, kept] of [
      ["JP", "1000001", "100-0001"],
      ["PL", "00001", "00-001"],
      ["PT", "1000001", "1000-001"],
      ["PT", "1000", "1000"],
      ["JP", "100 0001", "100-0001"],
    ]) {
      const parsed = addressSchema.safeParse({ ...ada, country, postalCode: typed });
      expect(parsed.success ? parsed.data.postalCode : parsed.error.issues, `${country} ${typed}`).toBe(kept);
    }
    expect(savedAddressSchema.parse({ ...ada, country: "JP", postalCode: "1000001" }).postalCode).toBe(
      "100-0001",
    );
    expect(errorsOf({ ...ada, country: "JP", postalCode: "10000012" })).toEqual({
      postalCode: "Enter a postal code used in Japan, like 100-0001",
    });
    // Only where codes have one place for it: a US ZIP+4 is written with its hyphen.
    expect(errorsOf({ ...ada, postalCode: "100011234" })).toEqual({
      postalCode: "Enter a postal code used in the United States, like 10001 or 10001-1234",
    });
  });

  it("keeps a code as the post prints it: capitals, one space", () => {
    expect(addressSchema.parse({ ...ada, country: "GB", postalCode: " sw1a   1aa " }).postalCode).toBe(
      "SW1A 1AA",
    );
  });

  it("refuses a code not of the country, saying what one looks like", () => {
    expect(errorsOf({ ...ada, postalCode: "ABCDE" })).toEqual({
      postalCode: "Enter a postal code used in the United States, like 10001 or 10001-1234",
    });
    expect(errorsOf({ ...ada, country: "GB", postalCode: "10001" })).toEqual({
      postalCode: "Enter a postal code used in the United Kingdom, like SW1A 1AA",
    });
    expect(errorsOf({ ...ada, country: "NL", postalCode: "ABCDE" })).toEqual({
      postalCode: "Enter a postal code used in the Netherlands, like 1012 AB",
    });
    expect(errorsOf({ ...ada, country: "IN", postalCode: "ABCDE" })).toEqual({
      postalCode: "Enter a postal code used in India, like 110001",
    });
    // A code refused for its characters gets that one message, not a second.
    expect(addressSchema.safeParse({ ...ada, postalCode: "<script>" }).error?.issues).toHaveLength(1);
    expect(errorsOf({ ...ada, country: "DE", postalCode: "1011" })).toEqual({
      postalCode: "Enter a postal code used in Germany, like 10115",
    });
  });

  it("says so beside the other fields' messages, not only once they are fixed", () => {
    expect(errorsOf({ ...ada, city: "", postalCode: "ABCDE" })).toEqual({
      city: "Enter the city",
      postalCode: "Enter a postal code used in the United States, like 10001 or 10001-1234",
    });
    // Without a country to judge it by, only the country is asked for.
    expect(errorsOf({ ...ada, country: "XX", postalCode: "ABCDE" })).toEqual({
      country: "Choose a country from the list",
    });
  });

  it("holds for the address book's addresses too", () => {
    const parsed = savedAddressSchema.safeParse({ ...ada, postalCode: "ABCDE" });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({
      postalCode: "Enter a postal code used in the United States, like 10001 or 10001-1234",
    });
  });
});

describe("the printed address", () => {
  const us = {
    line1: "1 Example Street",
    line2: "",
    city: "New York",
    region: "NY",
    postalCode: "10001",
    country: "US",
  };

  it("writes a US town line as the post does: city, state and ZIP code", () => {
    expect(townLine(us)).toBe("New York, NY 10001");
    expect(townLine({ ...us, postalCode: "10001-1234" })).toBe("New York, NY 10001-1234");
    expect(townLine({ ...us, region: "" })).toBe("New York 10001");
    expect(addressLines(us)).toEqual(["1 Example Street", "New York, NY 10001", "United States"]);
  });

  it("keeps the same order for other countries with states, and puts the code first where their post does", () => {
    expect(townLine({ ...us, city: "Lucknow", region: "UP", postalCode: "226001", country: "IN" })).toBe(
      "Lucknow, UP 226001",
    );
    expect(townLine({ ...us, city: "Toronto", region: "ON", postalCode: "M5V 2T6", country: "CA" })).toBe(
      "Toronto, ON M5V 2T6",
    );
    expect(townLine({ ...us, city: "London", region: "", postalCode: "SW1A 1AA", country: "GB" })).toBe(
      "London SW1A 1AA",
    );
    expect(townLine({ ...us, city: "Berlin", region: "", postalCode: "10115", country: "DE" })).toBe(
      "10115 Berlin",
    );
    expect(townLine({ ...us, city: "Roma", region: "RM", postalCode: "00184", country: "IT" })).toBe(
      "00184 Roma RM",
    );
  });

  it("leaves out blank parts and lines, and names the country", () => {
    expect(
      addressLines({
        line1: " ",
        line2: "Flat 2",
        city: " Paris ",
        region: "",
        postalCode: "75001",
        country: "FR",
      }),
    ).toEqual(["Flat 2", "75001 Paris", "France"]);
    // A deleted customer's order keeps its country alone.
    expect(
      addressLines({ line1: "", line2: "", city: "", region: "", postalCode: "", country: "US" }),
    ).toEqual(["United States"]);
    expect(addressLines({ ...us, country: "ZZ" }).at(-1)).toBe("ZZ");
  });
});
