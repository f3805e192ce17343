/** The header the server fills with the client's address (see server/app.ts); never trusted from the client. */
export const CLIENT_IP_HEADER = "x-client-ip";

/** The client's address as the server saw it, for limits counted per client. */
export const clientAddress = (request: Request) => request.headers.get(CLIENT_IP_HEADER) ?? "unknown";
