/**
 * Text embeddings for the knowledge base's hybrid search. Off by default (full-text search alone works
 * offline on both databases); with EMBEDDINGS_BASE_URL set, passages and queries are embedded through an
 * OpenAI-compatible `/embeddings` API and both rankings are combined (reciprocal rank fusion).
 */
export type EmbeddingsProvider = {
  readonly model: string;
  /** One vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
};

/** The OpenAI embeddings API (`POST {baseUrl}/embeddings`), or any server that speaks it (Ollama, vLLM). */
export function openAiCompatibleEmbeddings(options: {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): EmbeddingsProvider {
  const doFetch = options.fetch ?? fetch;
  return {
    model: options.model,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      // The API takes batches; 96 inputs keeps each request well under the providers' limits.
      for (let start = 0; start < texts.length; start += 96) {
        const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
        const response = await doFetch(`${options.baseUrl}/embeddings`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: options.model, input: texts.slice(start, start + 96) }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        if (!response.ok) throw new Error(`The embeddings API answered ${response.status}.`);
        const body = (await response.json()) as { data?: { index: number; embedding: number[] }[] };
        const data = [...(body.data ?? [])].sort((a, b) => a.index - b.index);
        if (data.length !== Math.min(96, texts.length - start))
          throw new Error("The embeddings API answered the wrong number of vectors.");
        for (const item of data) vectors.push(item.embedding);
      }
      return vectors;
    },
  };
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Reciprocal rank fusion of ranked id lists (k = 60, as in Cormack et al.). */
export function reciprocalRankFusion<T>(rankings: readonly (readonly T[])[], k = 60): T[] {
  const scores = new Map<T, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1));
    });
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
