import { useState } from "react";
import { COUNTRIES } from "~/lib/address";
import { regionCodeOf, regionsOf } from "~/lib/regions";
import { SelectField, TextField } from "./field";

export type AddressValues = Partial<
  Record<"name" | "line1" | "line2" | "city" | "region" | "postalCode" | "country" | "phone", string>
>;

/**
 * The fields of a postal address (checkout and address book). With a prefix the names are nested
 * ("billing.city"), as the checkout posts them; errors are looked up by the same names.
 */
export function AddressFields({
  prefix,
  legend,
  errors,
  defaults = {},
  autoCompleteSection,
  testId,
  countries,
}: {
  prefix?: string;
  legend: string;
  errors: Partial<Record<string, string>>;
  defaults?: AddressValues;
  autoCompleteSection?: "billing" | "shipping";
  testId?: string;
  /** The country codes to offer (a shipping address: where the store ships); all countries without it. */
  countries?: string[];
}) {
  const offered = countries ? countries.filter((code) => code in COUNTRIES) : Object.keys(COUNTRIES);
  const field = (name: keyof AddressValues) => {
    const full = prefix ? `${prefix}.${name}` : name;
    return {
      name: full,
      error: errors[full],
      id: `${prefix ?? "address"}-${name}`,
      defaultValue: defaults[name] ?? "",
    };
  };
  const auto = (token: string) => (autoCompleteSection ? `${autoCompleteSection} ${token}` : token);
  const initialCountry =
    defaults.country && offered.includes(defaults.country)
      ? defaults.country
      : offered.includes("US")
        ? "US"
        : offered[0]!;
  // The United States and India list their states (what tax goes by); other countries take a region as typed.
  const [country, setCountry] = useState(initialCountry);
  const states = regionsOf(country);
  const stateDefault = states ? (regionCodeOf(country, defaults.region ?? "") ?? "") : undefined;
  return (
    <fieldset className="space-y-4" data-testid={testId ?? (prefix ? `${prefix}-address` : "address-fields")}>
      <legend className="text-lg font-bold">{legend}</legend>
      <TextField label="Full name" autoComplete={auto("name")} {...field("name")} />
      <TextField label="Street address" autoComplete={auto("address-line1")} {...field("line1")} />
      <TextField
        label="Apartment, suite, etc. (optional)"
        autoComplete={auto("address-line2")}
        {...field("line2")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="City" autoComplete={auto("address-level2")} {...field("city")} />
        {states ? (
          <SelectField
            key={country}
            label={country === "IN" ? "State or union territory" : "State"}
            autoComplete={auto("address-level1")}
            {...field("region")}
            defaultValue={stateDefault}
          >
            <option value="">Choose…</option>
            {Object.entries(states).map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </SelectField>
        ) : (
          <TextField
            key={country}
            label="State or region (optional)"
            autoComplete={auto("address-level1")}
            {...field("region")}
          />
        )}
        <TextField label="Postal code" autoComplete={auto("postal-code")} {...field("postalCode")} />
        <SelectField
          label="Country"
          autoComplete={auto("country")}
          {...field("country")}
          defaultValue={initialCountry}
          onChange={(event) => setCountry(event.target.value)}
        >
          {offered.map((code) => (
            <option key={code} value={code}>
              {COUNTRIES[code]}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField label="Phone (optional)" type="tel" autoComplete={auto("tel")} {...field("phone")} />
    </fieldset>
  );
}
