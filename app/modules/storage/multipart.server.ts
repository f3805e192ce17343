/**
 * multipart/form-data bodies, read with busboy as they arrive: a file part is handed over as a stream, so a file is
 * never held in memory. Busboy keeps each part's headers within 16 KiB; the limits here bound the rest.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import busboy from "busboy";

export class MultipartError extends Error {
  override name = "MultipartError";
}

export type MultipartLimits = {
  /** Most parts accepted. */
  maxParts: number;
  /** Longest value of a part that is not a file. */
  maxFieldBytes: number;
};

export type MultipartHandlers = {
  /** A part without a file name, as text. Throw to refuse the form. */
  field(name: string, value: string): void;
  /**
   * A file part (one with a file name, or sent as application/octet-stream), read as it arrives. `contentType` is
   * the part's (text/plain when it has none). The form is read on meanwhile; reject to refuse it.
   */
  file(name: string, body: Readable, contentType: string): Promise<void>;
};

export type MultipartForm = {
  /**
   * Reads the body to its end, or to the first failure: a malformed body, a limit, a handler's error or the source's
   * (a client that went away). Settles only once every file handler has, so that whatever they stored is known.
   * After a failure the rest of the body is left unread.
   */
  read(source: Readable, handlers: MultipartHandlers): Promise<void>;
};

/** What busboy says when a body is malformed, in this API's words. */
const MESSAGES: Record<string, string> = {
  "Malformed part header": "Malformed multipart part header",
  "Unexpected end of form": "The multipart body ended too early",
  "Unexpected end of file": "The multipart body ended too early",
};

/** A reader of a multipart/form-data body with these headers, or undefined when the body is not one. */
export function multipartForm(
  headers: IncomingHttpHeaders,
  limits: MultipartLimits,
): MultipartForm | undefined {
  const type = headers["content-type"]?.split(";", 1)[0]!.trim().toLowerCase();
  // Busboy reads urlencoded forms too: those are not uploads.
  if (type !== "multipart/form-data") return undefined;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers,
      // One part over the limit still reaches a handler, to be refused; busboy skips any after it. A field one
      // byte over its limit comes marked as cut short.
      limits: { parts: limits.maxParts + 1, fieldSize: limits.maxFieldBytes + 1 },
    });
  } catch {
    return undefined; // no boundary, or a Content-Type busboy cannot read
  }
  return { read: (source, handlers) => read(source, parser, limits, handlers) };
}

function read(
  source: Readable,
  parser: busboy.Busboy,
  limits: MultipartLimits,
  handlers: MultipartHandlers,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const files: Promise<void>[] = [];
    let failure: { error: unknown } | undefined;
    let parts = 0;
    const settle = () => {
      void Promise.allSettled(files).then(() => (failure ? reject(failure.error) : resolve()));
    };
    const fail = (error: unknown) => {
      if (failure) return;
      failure = { error };
      source.unpipe(parser);
      // Ends the file being read with an error: its handler fails, and whatever it had written is removed.
      parser.destroy();
      settle();
    };
    const checkPart = (name: string | undefined): string => {
      if (++parts > limits.maxParts) throw new MultipartError(`Too many parts (at most ${limits.maxParts})`);
      if (name === undefined) throw new MultipartError("A multipart part has no field name");
      return name;
    };

    parser.on("field", (name: string | undefined, value, info) => {
      if (failure) return;
      try {
        const field = checkPart(name);
        if (info.valueTruncated)
          throw new MultipartError(`The "${field}" field is over ${limits.maxFieldBytes} bytes.`);
        handlers.field(field, value);
      } catch (error) {
        fail(error);
      }
    });
    parser.on("file", (name: string | undefined, body, info) => {
      if (failure) {
        body.resume();
        return;
      }
      // The handler may not be reading yet (a stored file's writer opens its folder first): an error of the body
      // then reaches it when it starts, not as an uncaught 'error' event.
      body.on("error", () => {});
      const handled = (async () => handlers.file(checkPart(name), body, info.mimeType))();
      files.push(handled.catch(fail));
    });
    parser.on("error", (error: Error) =>
      fail(MESSAGES[error.message] ? new MultipartError(MESSAGES[error.message]) : error),
    );
    parser.on("close", () => {
      if (!failure) settle();
    });
    source.on("error", fail);
    source.on("close", () => {
      if (!source.readableEnded) fail(new MultipartError("The multipart body ended too early"));
    });
    source.pipe(parser);
  });
}
