import type {} from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../api-error.ts";

/** Answer to a multipart body that cannot be read: no boundary, not multipart inside, cut short, bad headers. */
export const MALFORMED_UPLOAD_MESSAGE = "The upload is not valid multipart/form-data.";

export type UploadMessages = {
  /** The request is not multipart/form-data at all. */
  notMultipart: string;
  /** Multipart, but without a file part. */
  noFile: string;
  /** The file is larger than the route allows. */
  tooLarge: string;
};

const errorCode = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * The one file part of a multipart/form-data upload, at most `maxBytes`: the reader every upload route
 * uses. Reading only parses the request, so whatever fails in it is the request's fault and answers 4xx
 * with a message (413 for a file too large, 400 otherwise), never 500.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  maxBytes: number,
  messages: UploadMessages,
): Promise<Buffer> {
  if (!request.isMultipart()) throw new ApiError(400, messages.notMultipart);
  try {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!part) throw new ApiError(400, messages.noFile);
    return await part.toBuffer();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (errorCode(error) === "FST_REQ_FILE_TOO_LARGE") throw new ApiError(413, messages.tooLarge);
    throw new ApiError(400, MALFORMED_UPLOAD_MESSAGE);
  }
}
