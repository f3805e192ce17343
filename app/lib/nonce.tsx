import { createContext, useContext } from "react";

/** The per-request CSP nonce, for the scripts React Router renders. Empty in the browser. */
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
