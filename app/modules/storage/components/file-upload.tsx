import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/ui/button";
import { fileInputClass } from "~/ui/field";
import { type StorageClient, StorageError, uploadFile as defaultUpload } from "../client";
import type { StoredObjectResponse, UploadMetadata } from "../schemas";

type Status =
  | { state: "idle" }
  | { state: "uploading"; bytesTransferred: number; totalBytes: number }
  | { state: "done"; object: StoredObjectResponse }
  | { state: "error"; message: string };

export type FileUploadProps = {
  label: string;
  bucket: string;
  /** The object path for the chosen file (e.g. from its name and the product). */
  pathFor: (file: File) => string;
  accept?: string;
  metadata?: UploadMetadata;
  onUploaded?: (object: StoredObjectResponse) => void;
  /** Defaults to the page's own store. */
  upload?: StorageClient["uploadFile"];
};

/** A file picker that uploads at once, with a progress bar and a Cancel button (for the admin's forms). */
export function FileUpload({
  label,
  bucket,
  pathFor,
  accept = "image/png,image/jpeg,image/webp,image/gif",
  metadata,
  onUploaded,
  upload = defaultUpload,
}: FileUploadProps) {
  const id = useId();
  const [status, setStatus] = useState<Status>({ state: "idle" });
  const controller = useRef<AbortController | null>(null);
  // Leaving the page cancels an upload still running.
  useEffect(() => () => controller.current?.abort(), []);

  async function start(file: File) {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setStatus({ state: "uploading", bytesTransferred: 0, totalBytes: file.size });
    try {
      const object = await upload(bucket, pathFor(file), file, {
        ...(metadata ? { metadata } : {}),
        signal: current.signal,
        onProgress: (progress) => setStatus({ state: "uploading", ...progress }),
      });
      setStatus({ state: "done", object });
      onUploaded?.(object);
    } catch (error) {
      if (error instanceof StorageError && error.code === "storage/canceled") setStatus({ state: "idle" });
      else setStatus({ state: "error", message: messageFor(error) });
    } finally {
      if (controller.current === current) controller.current = null;
    }
  }

  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-ink-800">
        {label}
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={status.state === "uploading"}
        className={`${fileInputClass} disabled:opacity-60`}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) void start(file);
          event.currentTarget.value = "";
        }}
      />
      {status.state === "uploading" ? (
        <div className="mt-2 flex items-center gap-3" data-testid="upload-status">
          <progress
            data-testid="upload-progress"
            className="h-2 w-48"
            max={status.totalBytes || 1}
            value={status.bytesTransferred}
            aria-label={`Uploading: ${percent(status)}%`}
          />
          <span className="text-xs text-slate-600">{percent(status)}%</span>
          <Button variant="secondary" onClick={() => controller.current?.abort()}>
            Cancel<span className="sr-only"> the upload</span>
          </Button>
        </div>
      ) : null}
      {status.state === "done" ? (
        <p className="mt-1 text-sm text-slate-600" role="status" data-testid="upload-done">
          Uploaded {status.object.name}.
        </p>
      ) : null}
      {status.state === "error" ? (
        <p className="mt-1 text-sm text-red-700" role="alert">
          {status.message}
        </p>
      ) : null}
    </div>
  );
}

const percent = ({ bytesTransferred, totalBytes }: { bytesTransferred: number; totalBytes: number }) =>
  totalBytes === 0 ? 0 : Math.round((bytesTransferred / totalBytes) * 100);

function messageFor(error: unknown): string {
  if (!(error instanceof StorageError)) return "The upload failed. Please try again.";
  switch (error.code) {
    case "storage/retry-limit-exceeded":
      return "The store could not be reached for too long. Please try again later.";
    case "storage/unauthenticated":
      return "Your session has ended. Sign in again, then retry.";
    case "storage/unauthorized":
      return "You may not upload files here.";
    case "storage/quota-exceeded":
      return "The storage space is full. Delete unused files first.";
    default:
      return error.message;
  }
}
