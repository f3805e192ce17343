import { SECTIONS } from "~/modules/catalogue/sections";

/** The brand groups of a select, under a heading per catalogue section. */
export function BrandGroupOptions({
  groups,
}: {
  groups: ReadonlyArray<{ key: string; name: string; section: string }>;
}) {
  return Object.entries(SECTIONS).map(([section, info]) => (
    <optgroup key={section} label={info.label}>
      {groups
        .filter((group) => group.section === section)
        .map((group) => (
          <option key={group.key} value={group.key}>
            {group.name}
          </option>
        ))}
    </optgroup>
  ));
}
