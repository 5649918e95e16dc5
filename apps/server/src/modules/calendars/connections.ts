import type { FastifyBaseLogger } from "fastify";
import { CalendarAuthError, type GoogleCalendarApi } from "../../providers/calendar/calendar-api.ts";
import { decryptSecret, encryptSecret } from "../../providers/llm/key-encryption.ts";
import type { CalendarsRepository, ConnectionRow } from "./calendars.repository.ts";

/** What a connection keeps encrypted: Google's OAuth tokens, or Calendly's personal access token. */
export type ConnectionCredentials = {
  token: string;
  refreshToken?: string | null;
  /** When the access token expires (ms epoch); Calendly tokens do not. */
  expiresAt?: number | null;
};

/** What the agent calendar needs of the connections: the effective ones and authorised calls. */
export type ConnectionAccess = {
  effective(accountIds: number[]): Promise<ConnectionRow[]>;
  withGoogle<T>(connection: ConnectionRow, call: (accessToken: string) => Promise<T>): Promise<T>;
  credentials(connection: ConnectionRow): ConnectionCredentials;
  markBroken(connection: ConnectionRow, reason: string): Promise<void>;
};

/** Refresh an access token this long before it expires. */
const REFRESH_MARGIN_MS = 60_000;

type Deps = {
  repo: CalendarsRepository;
  google: GoogleCalendarApi;
  secretKey: string;
  log: FastifyBaseLogger;
  now: () => number;
};

export function encryptCredentials(secretKey: string, credentials: ConnectionCredentials): string {
  return encryptSecret(secretKey, JSON.stringify(credentials));
}

/** Connections with their secrets: decrypting, refreshing Google's access token, breaking on refusal. */
export function createConnectionAccess({ repo, google, secretKey, log, now }: Deps): ConnectionAccess {
  const credentials = (connection: ConnectionRow): ConnectionCredentials =>
    JSON.parse(decryptSecret(secretKey, connection.credentialsEncrypted)) as ConnectionCredentials;

  async function markBroken(connection: ConnectionRow, reason: string) {
    log.warn(
      { connectionId: connection.id, provider: connection.provider, reason },
      "calendar connection broken",
    );
    await repo.update(connection.id, { state: "broken", brokenReason: reason });
    connection.state = "broken";
    connection.brokenReason = reason;
  }

  /** A fresh access token: refreshed (and stored) when it expires within a minute or `force`. */
  async function accessToken(connection: ConnectionRow, force: boolean): Promise<string> {
    const current = credentials(connection);
    if (!force && (current.expiresAt ?? 0) > now() + REFRESH_MARGIN_MS) return current.token;
    if (!current.refreshToken)
      throw new CalendarAuthError("Google refused the connection: no refresh token; connect again");
    const fresh = await google.refresh(current.refreshToken);
    const next: ConnectionCredentials = {
      token: fresh.accessToken,
      refreshToken: fresh.refreshToken ?? current.refreshToken,
      expiresAt: fresh.expiresAt,
    };
    const encrypted = encryptCredentials(secretKey, next);
    await repo.update(connection.id, { credentialsEncrypted: encrypted });
    connection.credentialsEncrypted = encrypted;
    return next.token;
  }

  return {
    effective: (accountIds) => repo.ofAccounts(accountIds),
    credentials,
    markBroken,
    async withGoogle(connection, call) {
      try {
        return await call(await accessToken(connection, false));
      } catch (error) {
        if (!(error instanceof CalendarAuthError)) throw error;
        // The access token may have been revoked early: one refresh, then the refusal stands.
        try {
          return await call(await accessToken(connection, true));
        } catch (retryError) {
          if (retryError instanceof CalendarAuthError) await markBroken(connection, retryError.message);
          throw retryError;
        }
      }
    },
  };
}
