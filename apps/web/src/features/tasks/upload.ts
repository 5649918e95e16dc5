import { createApiClient, type RouteQuery, type RouteResponse, uploadTaskCsv } from "@switchboard/api";
import { withViewingAs } from "../../lib/api-client.ts";
import { getTargetAccountId, readToken } from "../../lib/session.ts";

/**
 * A `fetch` over XMLHttpRequest, so an upload reports how much of the file has gone (fetch cannot): the
 * typed client sends through it like through fetch. `onProgress` gets the fraction sent, 0 to 1.
 */
export function fetchWithUploadProgress(onProgress: (fraction: number) => void): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init?.method ?? "GET", String(input));
      xhr.responseType = "blob";
      for (const [key, value] of new Headers(init?.headers).entries()) xhr.setRequestHeader(key, value);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.upload.onload = () => onProgress(1);
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr
          .getAllResponseHeaders()
          .trim()
          .split(/[\r\n]+/)) {
          const at = line.indexOf(":");
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        resolve(
          new Response(xhr.response as Blob, { status: xhr.status, statusText: xhr.statusText, headers }),
        );
      };
      xhr.onerror = () => reject(new TypeError("Failed to fetch"));
      xhr.onabort = () => reject(new DOMException("The upload was stopped.", "AbortError"));
      init?.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
      xhr.send((init?.body as XMLHttpRequestBodyInit | null | undefined) ?? null);
    });
}

export type UploadAnswer = RouteResponse<typeof uploadTaskCsv>;

/** Sends a list (multipart field `csv`) through the typed client, reporting the upload's progress. */
export function uploadTaskList(
  file: File,
  query: RouteQuery<typeof uploadTaskCsv>,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<UploadAnswer> {
  const client = createApiClient({
    getToken: () => readToken(),
    tokenIn: "header",
    getTargetAccountId: () => getTargetAccountId(),
    fetch: withViewingAs(fetchWithUploadProgress(onProgress)),
  });
  const form = new FormData();
  form.append("csv", file, file.name);
  return client.call(uploadTaskCsv, { query, form, ...(signal ? { signal } : {}) });
}
