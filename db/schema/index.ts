export * from "./accounts";
export * from "./catalogue";
export * from "./content";
export * from "./messages";
export * from "./orders";
export * from "./storage";
export * from "./admin";
