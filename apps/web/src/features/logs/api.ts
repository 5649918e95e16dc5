import {
  ApiRequestError,
  buildQuery,
  getCampaigns,
  getConversationTranscript,
  type LogField,
  listLogFields,
  listLogs,
} from "@switchboard/api";
import {
  buildLogExportRequest,
  buildLogRequest,
  conversationLogsExportName,
  type LogScreenState,
} from "@switchboard/core";
import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient, authHeaders, withViewingAs } from "../../lib/api-client.ts";
import { getTargetAccountId } from "../../lib/session.ts";

export type { LogField };

/** The screen's message when the logs cannot be fetched (spec §8). */
export const FAILED_TO_FETCH_LOGS = "Failed to fetch logs";
/** Transcript failures (call catalogue §8). */
export const FAILED_TO_FETCH_CONVO = "Failed to fetch convo";
export const FAILED_TO_FETCH_CONVERSATION = "Failed to fetch conversation";

/** Offset of this browser's days from UTC, for day filters. */
export const utcOffsetMinutes = () => -new Date().getTimezoneOffset();

export function useLogFields() {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["log-fields", accountId, viewingAs],
    queryFn: ({ signal }) => apiClient.call(listLogFields, { signal }),
    staleTime: 60_000,
  });
}

/** One page of logs for the screen's state; the window is resolved against the time of the request. */
export function useLogs(state: LogScreenState, options: { enabled?: boolean } = {}) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["logs", accountId, viewingAs, state],
    enabled: options.enabled ?? true,
    queryFn: async ({ signal }) => {
      const request = buildLogRequest(state, { now: Date.now() });
      try {
        return await apiClient.call(listLogs, {
          query: { ...request, format: "json", utcOffsetMinutes: utcOffsetMinutes() },
          signal,
        });
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") throw error;
        throw new ApiRequestError(
          error instanceof ApiRequestError ? error.status : 0,
          FAILED_TO_FETCH_LOGS,
          error instanceof Error ? error.message : undefined,
        );
      }
    },
    placeholderData: keepPreviousData,
  });
}

/**
 * The time zone of each agent (its campaign's): the schedule shows a booking in the zone it was booked in.
 * Agents whose campaign cannot be read (or has no zone) are left out: their bookings use the browser's zone.
 */
export function useAgentTimeZones(agentIds: readonly number[]): Readonly<Record<number, string>> {
  const [accountId, viewingAs] = useAccountKey();
  const results = useQueries({
    queries: agentIds.map((agentId) => ({
      queryKey: ["agent-time-zone", accountId, viewingAs, agentId],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (await apiClient.call(getCampaigns, { query: { agentId }, signal })).staging.timezone,
      staleTime: 5 * 60_000,
      retry: false,
    })),
  });
  const zones: Record<number, string> = {};
  results.forEach((result, index) => {
    const agentId = agentIds[index];
    if (agentId !== undefined && typeof result.data === "string" && result.data) zones[agentId] = result.data;
  });
  // The same object while the zones are the same, so the page's table re-renders only when one arrives.
  const kept = useRef(zones);
  const before = Object.entries(kept.current);
  if (before.length !== Object.keys(zones).length || before.some(([id, zone]) => zones[Number(id)] !== zone))
    kept.current = zones;
  return kept.current;
}

export function useTranscript(roomId: string, uuid: string) {
  const [accountId, viewingAs] = useAccountKey();
  return useQuery({
    queryKey: ["transcript", accountId, viewingAs, roomId, uuid],
    enabled: roomId !== "" && uuid !== "",
    queryFn: async ({ signal }) => {
      let answer: Awaited<ReturnType<typeof apiClient.call<typeof getConversationTranscript>>>;
      try {
        answer = await apiClient.call(getConversationTranscript, { params: { roomId, uuid }, signal });
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") throw error;
        throw new Error(FAILED_TO_FETCH_CONVO);
      }
      if (!Array.isArray(answer?.conversation)) throw new Error(FAILED_TO_FETCH_CONVERSATION);
      return answer;
    },
  });
}

export type ExportProgress = { rows: number; expected: number; done: boolean };

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const fileNameOf = (response: Response, fallback: string) =>
  /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? fallback;

/**
 * The export of spec §9: page 1 of 10,000 rows of the screen's state, as CSV (streamed, rows counted as they
 * arrive) or JSON, saved as conversation_logs_{date}.csv / .json.
 */
export async function exportLogs(
  state: LogScreenState,
  format: "csv" | "json",
  expected: number,
  onProgress: (progress: ExportProgress) => void,
): Promise<string> {
  const today = new Date().toISOString().slice(0, 10);
  const request = buildLogExportRequest(state, format, { now: Date.now() });
  const total = Math.min(expected, request.pageSize ?? expected);
  onProgress({ rows: 0, expected: total, done: false });
  if (format === "json") {
    const answer = await apiClient.call(listLogs, {
      query: { ...request, format: "json", utcOffsetMinutes: utcOffsetMinutes() },
    });
    const name = conversationLogsExportName(today, "json");
    download(new Blob([JSON.stringify(answer.logs, null, 2)], { type: "application/json" }), name);
    onProgress({ rows: answer.logs.length, expected: total, done: true });
    return name;
  }
  const query = buildQuery({
    targetAccountId: getTargetAccountId(),
    ...request,
    utcOffsetMinutes: utcOffsetMinutes(),
  });
  const response = await withViewingAs((input, init) => fetch(input, init))(`${listLogs.path}${query}`, {
    headers: authHeaders(),
  });
  if (!response.ok || !response.body) {
    const text = await response.text();
    let message = FAILED_TO_FETCH_LOGS;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // not JSON
    }
    throw new ApiRequestError(response.status, message);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let rows = -1; // the header line is not a row
  let inQuotes = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    parts.push(text);
    for (let i = 0; i < text.length; i++) {
      const char = text.charCodeAt(i);
      if (char === 34) inQuotes = !inQuotes;
      else if (char === 10 && !inQuotes) rows++;
    }
    onProgress({ rows: Math.max(0, rows), expected: total, done: false });
  }
  parts.push(decoder.decode());
  const name = fileNameOf(response, conversationLogsExportName(today, "csv"));
  download(new Blob(parts, { type: "text/csv;charset=utf-8" }), name);
  onProgress({ rows: Math.max(0, rows), expected: total, done: true });
  return name;
}
