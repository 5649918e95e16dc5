import pino, { type DestinationStream, type Logger } from "pino";

/** Query and body fields that are secrets: never written to the logs. */
const SECRET_KEYS = [
  "token",
  "adminToken",
  "authToken",
  "oneTimeToken",
  "tempUserToken",
  "verificationCode",
  "code",
  "password",
] as const;

const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_KEYS.join("|")})=)[^&#]*`, "gi");

export const REDACTED = "[redacted]";

/** Replaces the values of secret query parameters in a URL. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, `$1${REDACTED}`);
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          "req.headers.authorization",
          "req.headers.cookie",
          "headers.authorization",
          "authorization",
          "Authorization",
          ...SECRET_KEYS,
          ...SECRET_KEYS.map((key) => `*.${key}`),
        ],
        censor: REDACTED,
      },
      serializers: {
        req: (request: { method: string; url: string; ip?: string; headers?: Record<string, unknown> }) => ({
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
          userAgent: request.headers?.["user-agent"],
        }),
      },
    },
    destination,
  );
}
