/** An error the API answers with its own status and message: `{ success: false, message }`. */
export class ApiError extends Error {
  readonly statusCode: number;
  /** Further fields of the answer, added after success and message (which they never replace). */
  readonly extra: Record<string, unknown> | undefined;
  constructor(statusCode: number, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = "ApiError";
    this.statusCode = statusCode;
    this.extra = extra;
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) => new ApiError(401, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new ApiError(409, message, extra);
export const tooManyRequests = (message: string) => new ApiError(429, message);
