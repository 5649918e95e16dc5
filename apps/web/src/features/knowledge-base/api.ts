import {
  ApiRequestError,
  addKbDocuments,
  createKnowledgeBase,
  deleteKbDocument,
  deleteKnowledgeBase,
  discoverSitemap,
  getKnowledgeBase,
  kbFailure,
  listKnowledgeBases,
  queryKnowledgeBase,
  type RouteBody,
  refreshKbDocument,
  uploadKbDocument,
} from "@switchboard/api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountKey } from "../../lib/account-state.ts";
import { apiClient } from "../../lib/api-client.ts";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/**
 * The knowledge-base calls throw 'Failed to ... : {status text}' (call catalogue §8); the server's reason
 * follows when it gave one, so the user learns what to change.
 */
async function failing<T>(action: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiRequestError)) {
      if ((error as { name?: string }).name === "AbortError") throw error;
      throw new Error(kbFailure(action, "Network error"));
    }
    const statusText = STATUS_TEXT[error.status] ?? `HTTP ${error.status}`;
    const reason = error.message && error.message !== statusText ? ` (${error.message})` : "";
    throw new Error(`${kbFailure(action, statusText)}${reason}`);
  }
}

function useKey(...parts: (string | number)[]) {
  const [accountId, viewingAs] = useAccountKey();
  return ["knowledge-base", accountId, viewingAs, ...parts] as const;
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["knowledge-base"] });
}

const busy = (progress: { queued: number; fetching: number } | undefined) =>
  Boolean(progress && progress.queued + progress.fetching > 0);

export function useKnowledgeBases() {
  return useQuery({
    queryKey: useKey("list"),
    queryFn: ({ signal }) =>
      failing("fetch knowledge bases", () => apiClient.call(listKnowledgeBases, { signal })),
    refetchInterval: (query) =>
      query.state.data?.knowledgeBases.some((kb) => busy(kb.progress)) ? 2000 : false,
  });
}

/** One knowledge base with its documents; polled while documents are queued or being fetched. */
export function useKnowledgeBase(id: number | null) {
  return useQuery({
    queryKey: useKey("kb", id ?? 0),
    enabled: id !== null,
    queryFn: ({ signal }) =>
      failing("fetch knowledge base", () =>
        apiClient.call(getKnowledgeBase, { params: { id: id as number }, signal }),
      ),
    refetchInterval: (query) => (busy(query.state.data?.knowledgeBase.progress) ? 1000 : false),
  });
}

export function useCreateKnowledgeBase() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (title: string) =>
      failing("create knowledge base", () => apiClient.call(createKnowledgeBase, { body: { title } })),
    onSuccess: invalidate,
  });
}

export function useDeleteKnowledgeBase() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) =>
      failing("delete knowledge base", () => apiClient.call(deleteKnowledgeBase, { params: { id } })),
    onSuccess: invalidate,
  });
}

export function useDiscoverSitemap() {
  return useMutation({
    mutationFn: (url: string) =>
      failing("fetch sitemap", () => apiClient.call(discoverSitemap, { body: { url } })),
  });
}

export function useAddDocuments(id: number) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: RouteBody<typeof addKbDocuments>) =>
      failing("add document", () => apiClient.call(addKbDocuments, { params: { id }, body })),
    onSuccess: invalidate,
  });
}

export function useUploadDocument(id: number) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("file", file, file.name);
      return failing("add document", () => apiClient.call(uploadKbDocument, { params: { id }, form }));
    },
    onSuccess: invalidate,
  });
}

export function useRefreshDocument(id: number) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (docId: number) =>
      failing("refresh document", () => apiClient.call(refreshKbDocument, { params: { id, docId } })),
    onSuccess: invalidate,
  });
}

export function useDeleteDocument(id: number) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (docId: number) =>
      failing("delete document", () => apiClient.call(deleteKbDocument, { params: { id, docId } })),
    onSuccess: invalidate,
  });
}

export function useQueryKnowledgeBase(id: number) {
  return useMutation({
    mutationFn: (query: string) =>
      failing("query knowledge base", () =>
        apiClient.call(queryKnowledgeBase, { params: { id }, body: { query } }),
      ),
  });
}
