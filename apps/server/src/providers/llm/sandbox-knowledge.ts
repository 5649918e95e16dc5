/**
 * What the sandbox model knows: question/answer pairs and facts found in an agent's instructions, and a
 * keyword match of a question against them. Deterministic: the same instructions and question give the same
 * answer.
 */

export type KnowledgeItem = { kind: "qa" | "fact"; question: string; answer: string };

const STOPWORDS = new Set(
  (
    "a an the and or but if of to in on at by for with about from into over under is are was were be been am " +
    "do does did doing have has had i you your yours we our ours they them their it its this that these those " +
    "me my mine he she his her what which who whom whose when where why how can could would should will shall " +
    "may might must there here please thanks thank hi hello hey just also any some so not no yes ok okay " +
    "tell know like want need get give let as up out than then too very"
  ).split(" "),
);

/** Words that mean the same thing to a caller, folded to one. */
const SYNONYMS: Record<string, string> = {
  hour: "hour",
  open: "hour",
  opening: "hour",
  close: "hour",
  closing: "hour",
  closed: "hour",
  where: "address",
  address: "address",
  located: "address",
  location: "address",
  direction: "address",
  find: "address",
  price: "price",
  cost: "price",
  much: "price",
  fee: "price",
  charge: "price",
  pay: "price",
  insurance: "insurance",
  insur: "insurance",
  ppo: "insurance",
  cover: "insurance",
  covered: "insurance",
  park: "park",
  parking: "park",
  kid: "child",
  child: "child",
  children: "child",
  menu: "menu",
  food: "menu",
  cuisine: "menu",
  serve: "menu",
  dish: "menu",
  vegan: "vegetarian",
  vegetarian: "vegetarian",
  emergency: "urgent",
  urgent: "urgent",
  pain: "urgent",
};

function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith("es") && !word.endsWith("ses")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The meaningful words of a text, folded: lower case, stop words out, crude stems, synonyms joined. */
export function keywords(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const result: string[] = [];
  for (const word of words) {
    if (STOPWORDS.has(word)) continue;
    const folded = SYNONYMS[word] ?? SYNONYMS[stem(word)] ?? stem(word);
    if (folded.length > 1 && !result.includes(folded)) result.push(folded);
  }
  return result;
}

const QUESTION = /^\s*(?:[-*•]\s*)?(?:\*\*)?(?:q|question)\s*[:.)](?:\*\*)?\s*(.+)$/i;
/** Where a question marker starts inside a line (after other text): `Q:` or `Question:`, capitalised. */
const INLINE_QUESTION = /(?<=\S)\s+(?=(?:Q|Question)\s*:\s*\S)/;
const ANSWER = /^\s*(?:[-*•]\s*)?(?:\*\*)?(?:a|answer)\s*[:.)](?:\*\*)?\s*(.*)$/i;
/** Sentences that tell the agent how to behave rather than state a fact. */
const DIRECTIVE =
  /^(you\b|your\b|never\b|always\b|do not\b|don't\b|keep\b|be\b|ask\b|help\b|find out\b|save\b|treat\b|use\b|if\b|when\b|for\b|greet\b|answer\b|offer\b|confirm\b|transfer\b|book\b|take\b|tell\b|make sure\b)/i;

function sentences(line: string): string[] {
  return line
    .split(/(?<=[.!?])\s+(?=[A-Z0-9])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The Q/A pairs ("Q: ... A: ...", "Question: ... / Answer: ...") and the facts of a text. */
export function readKnowledge(instructions: string): KnowledgeItem[] {
  // Pairs written inline in one paragraph ("... Q: Do you treat reptiles? A: Yes. Q: ...") start a line
  // each, so every pair is read as its own question and answer.
  const lines = instructions.split(/\r?\n/).flatMap((line) => line.split(INLINE_QUESTION));
  const items: KnowledgeItem[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const question = line.match(QUESTION);
    if (question) {
      let q = question[1] ?? "";
      let a = "";
      const inline = q.match(/^(.*?\?)\s*(?:a|answer)\s*[:.)]\s*(.+)$/i);
      if (inline) {
        q = inline[1] ?? q;
        a = inline[2] ?? "";
      } else {
        const next = lines[i + 1] ?? "";
        const answer = next.match(ANSWER);
        if (answer) {
          a = answer[1] ?? "";
          i++;
          while (i + 1 < lines.length && (lines[i + 1] ?? "").trim() && !QUESTION.test(lines[i + 1] ?? "")) {
            a += ` ${(lines[i + 1] ?? "").trim()}`;
            i++;
          }
        }
      }
      if (a.trim()) items.push({ kind: "qa", question: q.trim(), answer: a.trim() });
      continue;
    }
    const text = line.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "").trim();
    if (!text || text.startsWith("#")) continue;
    for (const sentence of sentences(text)) {
      if (DIRECTIVE.test(sentence) && !/^[^:]{2,40}:\s/.test(sentence)) continue;
      items.push({ kind: "fact", question: sentence, answer: sentence });
    }
  }
  return items;
}

export type KnowledgeMatch = { item: KnowledgeItem; score: number };

/**
 * The item that best answers the question: shared keywords, rarer ones weighing more; a question of a Q/A
 * pair counts fully, its answer half. Null when nothing shares a meaningful word.
 */
export function bestMatch(question: string, items: readonly KnowledgeItem[]): KnowledgeMatch | null {
  const asked = keywords(question);
  if (asked.length === 0 || items.length === 0) return null;
  const itemWords = items.map((item) => ({
    question: new Set(keywords(item.question)),
    answer: new Set(keywords(item.answer)),
  }));
  const documentFrequency = new Map<string, number>();
  for (const words of itemWords) {
    for (const word of new Set([...words.question, ...words.answer]))
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  let best: KnowledgeMatch | null = null;
  items.forEach((item, index) => {
    const words = itemWords[index];
    if (!words) return;
    let score = 0;
    for (const word of asked) {
      const weight = 1 / (documentFrequency.get(word) ?? 1);
      if (words.question.has(word)) score += weight * (item.kind === "qa" ? 1.25 : 1);
      else if (words.answer.has(word)) score += weight * 0.5;
    }
    if (score > 0 && (!best || score > best.score)) best = { item, score };
  });
  return best;
}
