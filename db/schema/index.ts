export * from "./catalogue";
export * from "./content";
