/**
 * The states (and territories) of the countries whose taxes go by state: ISO 3166-2 subdivision codes without the
 * country ("NY", "KA"), as tax rules, tax registrations and addresses store them. Countries not listed here take a
 * region code as typed.
 */
export const REGIONS: Partial<Record<string, Record<string, string>>> = {
  US: {
    AL: "Alabama",
    AK: "Alaska",
    AZ: "Arizona",
    AR: "Arkansas",
    CA: "California",
    CO: "Colorado",
    CT: "Connecticut",
    DE: "Delaware",
    DC: "District of Columbia",
    FL: "Florida",
    GA: "Georgia",
    HI: "Hawaii",
    ID: "Idaho",
    IL: "Illinois",
    IN: "Indiana",
    IA: "Iowa",
    KS: "Kansas",
    KY: "Kentucky",
    LA: "Louisiana",
    ME: "Maine",
    MD: "Maryland",
    MA: "Massachusetts",
    MI: "Michigan",
    MN: "Minnesota",
    MS: "Mississippi",
    MO: "Missouri",
    MT: "Montana",
    NE: "Nebraska",
    NV: "Nevada",
    NH: "New Hampshire",
    NJ: "New Jersey",
    NM: "New Mexico",
    NY: "New York",
    NC: "North Carolina",
    ND: "North Dakota",
    OH: "Ohio",
    OK: "Oklahoma",
    OR: "Oregon",
    PA: "Pennsylvania",
    RI: "Rhode Island",
    SC: "South Carolina",
    SD: "South Dakota",
    TN: "Tennessee",
    TX: "Texas",
    UT: "Utah",
    VT: "Vermont",
    VA: "Virginia",
    WA: "Washington",
    WV: "West Virginia",
    WI: "Wisconsin",
    WY: "Wyoming",
    AS: "American Samoa",
    GU: "Guam",
    MP: "Northern Mariana Islands",
    PR: "Puerto Rico",
    VI: "U.S. Virgin Islands",
  },
  // The codes in force since ISO 3166-2's 2023 update (CG, OD, TS, UK; DH and LA since 2020).
  IN: {
    AP: "Andhra Pradesh",
    AR: "Arunachal Pradesh",
    AS: "Assam",
    BR: "Bihar",
    CG: "Chhattisgarh",
    GA: "Goa",
    GJ: "Gujarat",
    HR: "Haryana",
    HP: "Himachal Pradesh",
    JH: "Jharkhand",
    KA: "Karnataka",
    KL: "Kerala",
    MP: "Madhya Pradesh",
    MH: "Maharashtra",
    MN: "Manipur",
    ML: "Meghalaya",
    MZ: "Mizoram",
    NL: "Nagaland",
    OD: "Odisha",
    PB: "Punjab",
    RJ: "Rajasthan",
    SK: "Sikkim",
    TN: "Tamil Nadu",
    TS: "Telangana",
    TR: "Tripura",
    UP: "Uttar Pradesh",
    UK: "Uttarakhand",
    WB: "West Bengal",
    AN: "Andaman and Nicobar Islands",
    CH: "Chandigarh",
    DH: "Dadra and Nagar Haveli and Daman and Diu",
    DL: "Delhi",
    JK: "Jammu and Kashmir",
    LA: "Ladakh",
    LD: "Lakshadweep",
    PY: "Puducherry",
  },
};

/** The states of a country, or undefined when the store keeps no list for it. */
export const regionsOf = (country: string): Record<string, string> | undefined =>
  Object.hasOwn(REGIONS, country) ? REGIONS[country] : undefined;

/** A region code for people: "NY (New York)", or the code alone when the country has no list. */
export function regionLabel(country: string, code: string): string {
  const name = regionsOf(country)?.[code];
  return name ? `${code} (${name})` : code;
}

/** The shape of a region code for a country without a list: letters and digits, 1 to 3 of them. */
export const REGION_CODE = /^[A-Z0-9]{1,3}$/;

/** Whether a region code may be stored for a country: one of its states, or any well-formed code without a list. */
export function isRegionOf(country: string, code: string): boolean {
  const list = regionsOf(country);
  return list ? Object.hasOwn(list, code) : REGION_CODE.test(code);
}

/**
 * A state as an address gives it, as its code: "NY", "ny", "New York" -> "NY" for a country with a list ('' when
 * none is given; null when it is none of the country's states). A country without a list keeps what was typed.
 */
export function regionCodeOf(country: string, text: string): string | null {
  const typed = text.trim();
  if (typed === "") return "";
  const list = regionsOf(country);
  if (!list) return typed;
  const upper = typed.toUpperCase();
  if (Object.hasOwn(list, upper)) return upper;
  const byName = Object.entries(list).find(([, name]) => name.toLowerCase() === typed.toLowerCase());
  return byName ? byName[0] : null;
}
