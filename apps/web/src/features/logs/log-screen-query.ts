import {
  DEFAULT_SHOWN_LOG_COLUMNS,
  type LogScreenState,
  parseLogScreenQuery,
  serializeLogScreenQuery,
} from "@switchboard/core";
import { useMemo } from "react";
import { useLocation, useNavigate } from "react-router";

/**
 * The logs screen's state lives in the query (spec §2.2): filters, fields, page, pageSize, dateFilter, channel. Every
 * other key (overlays, ...) is kept as it is, so a view can be bookmarked and shared.
 */
export const LOG_SCREEN_KEYS = ["filters", "fields", "page", "pageSize", "dateFilter", "channel"] as const;

/** `search` with the screen's keys replaced by `state`'s. */
export function searchWithLogState(search: string, state: LogScreenState): string {
  const params = new URLSearchParams(search);
  for (const key of LOG_SCREEN_KEYS) params.delete(key);
  for (const [key, value] of new URLSearchParams(serializeLogScreenQuery(state))) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Fields shown by default: the usual call columns, then collected data, up to 10 (spec §9). */
export function defaultColumns(available: readonly string[]): string[] {
  const preferred = ["timestamp", "direction", "fromNumber", "toNumber", "cnam", "duration", "transfer"];
  const rest = available.filter(
    (field) =>
      !preferred.includes(field) &&
      !["accountId", "accountName", "agentId", "roomId", "callId", "uuid"].includes(field),
  );
  return [...preferred.filter((field) => available.length === 0 || available.includes(field)), ...rest].slice(
    0,
    DEFAULT_SHOWN_LOG_COLUMNS,
  );
}

export function useLogScreenState() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = useMemo(() => parseLogScreenQuery(location.search), [location.search]);
  return useMemo(
    () => ({
      state,
      /** Replaces the state (a new history entry, so Back returns to the previous view). */
      set(next: LogScreenState, options: { replace?: boolean; keepPage?: boolean } = {}) {
        const { page: _page, ...rest } = next;
        const target = options.keepPage ? next : rest;
        navigate(
          {
            pathname: location.pathname,
            search: searchWithLogState(location.search, target),
            hash: location.hash,
          },
          { replace: options.replace ?? false, state: location.state },
        );
      },
    }),
    [state, location, navigate],
  );
}
