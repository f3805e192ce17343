export * from "./accounts";
export * from "./catalogue";
export * from "./content";
export * from "./limits";
export * from "./messages";
export * from "./orders";
export * from "./storage";
export * from "./admin";
