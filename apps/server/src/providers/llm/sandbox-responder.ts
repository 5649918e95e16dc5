import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { readPromptFacts } from "./prompt-sections.ts";
import { dayText, extractDay, extractTime, startIso, todayIn } from "./sandbox-dates.ts";
import { bestMatch, type KnowledgeItem, readKnowledge } from "./sandbox-knowledge.ts";

/**
 * The sandbox model's decisions: a local, deterministic responder over the prompt the engine built. It
 * greets with the agent's greeting, answers from the Q/A pairs and facts of the instructions, turns requests
 * that match an enabled tool into a tool call (booking with the date and time it read, transfer, end call,
 * text message, saving data), words tool results for the caller, and otherwise says, in the agent's voice,
 * that it cannot help with that. It never talks about itself or its configuration to the person it answers
 * (a caller may be on the line): that a real model is needed for open conversation is said where the
 * agent's owner reads it (SANDBOX_CONFIGURATION_NOTE: the server log, the agent editor's test chat).
 */

export type SandboxReply =
  | { kind: "text"; text: string }
  | { kind: "tool"; toolName: string; input: Record<string, unknown> };

export const SANDBOX_MESSAGES = {
  fallback: "Sorry, I can't help with that. Is there anything else I can help you with?",
  identity: "I'm a virtual assistant. How can I help you today?",
  askDayAndTime: "Which day and time would you like?",
  askTime: "What time on that day would suit you?",
  askName: "What name should I put the appointment under?",
  noTransferTool: "Sorry, I can't transfer you right now. Is there anything else I can help you with?",
  anythingElse: "Is there anything else I can help with?",
  notInKnowledge: "Sorry, I don't have that information. Is there anything else I can help you with?",
} as const;

/** For the agent's owner, never the person the agent answers. */
export const SANDBOX_CONFIGURATION_NOTE =
  "The sandbox model answers only from the agent's instructions and runs its actions: for open conversation, choose a model under Settings → AI model, or set LLM_PROVIDER on the server.";

/** The knowledge tool's name (modules/runtime/tool-executors.ts KNOWLEDGE_TOOL). */
const KNOWLEDGE_TOOL = "searchKnowledgeBase";

type FoundPassage = { title?: unknown; url?: unknown; text?: unknown };

/**
 * The answer to a question from the passages the knowledge tool found: the Q/A pair or sentence of the
 * passages that best matches it, with the page it came from. Null when none shares a meaningful word.
 */
export function answerFromPassages(question: string, passages: readonly FoundPassage[]): string | null {
  const items: (KnowledgeItem & { source: string })[] = [];
  for (const passage of passages) {
    if (typeof passage.text !== "string") continue;
    const title = typeof passage.title === "string" ? passage.title : "";
    const url = typeof passage.url === "string" ? passage.url : "";
    const source = title && url ? `${title} (${url})` : title || url || "the knowledge base";
    for (const item of readKnowledge(passage.text)) items.push({ ...item, source });
  }
  const match = bestMatch(question, items);
  if (!match) return null;
  const { answer, source } = match.item as KnowledgeItem & { source: string };
  return `${answer.replace(/\s+$/, "")} (Source: ${source})`;
}

const GREETING =
  /^(hi|hello|hey|hiya|good (morning|afternoon|evening)|greetings)\b[\s!,.]*(there)?[\s!,.]*$/i;
const IDENTITY = /\b(who are you|are you (a |an )?(bot|robot|ai|human|real|person|machine)|what are you)\b/i;
const TRANSFER =
  /\b(transfer|put me through|connect me|speak (to|with)|talk (to|with)|real person|human|operator|representative|manager|receptionist)\b/i;
const BOOKING =
  /\b(book|booking|reserve|reservation|schedule (an?|my|me|it)|(make|get|need|want) an? (appointment|reservation|visit)|an appointment (for|on|at)|table for)\b/i;
const AVAILABILITY =
  /\b(availab\w*|free (times?|slots?)|openings|slots?|what times are (free|available|open))\b/i;
const SMS = /\b(text me|send (me )?(a |an )?(text|sms|message)|message me|sms)\b/i;
const END =
  /^(ok(ay)?[,.]?\s+)?(bye|goodbye|good bye|that'?s all|that is all|hang up|end (the )?(call|chat)|thanks,? bye)\b/i;
/** "my name is Jane Doe", "I'm Jane": the prefix in any case, the name capitalised. */
const NAME =
  /\b(?:[Mm]y name is|[Mm]y name's|I am|I'm|[Tt]his is|[Nn]ame:)\s+([A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)/;
const EMAIL = /\b[\w.+-]+@[\w-]+(\.[\w-]+)+\b/;
const PHONE = /(\+?\d[\d\s().-]{8,}\d)/;

/** A tool as the model is given it (its JSON schema: transferCall's destination lists the agent's names). */
type Tool = { name: string; inputSchema?: unknown };

/** The system prompt's line for a conversation the agent started (runtime/system-prompt.ts). */
const STARTED_BY_AGENT = "You started this conversation";

const textOf = (content: unknown): string =>
  Array.isArray(content)
    ? content
        .filter((part): part is { type: "text"; text: string } => part?.type === "text")
        .map((part) => part.text)
        .join(" ")
    : typeof content === "string"
      ? content
      : "";

function toPhone(text: string): string | null {
  const match = text.match(PHONE)?.[1];
  if (!match) return null;
  const digits = match.replace(/[^\d+]/g, "");
  if (digits.replace("+", "").length < 10) return null;
  return digits.startsWith("+") ? digits : digits.length === 10 ? `+1${digits}` : `+${digits}`;
}

function resultText(output: LanguageModelV3ToolResultOutput): { ok: boolean; text: string } {
  switch (output.type) {
    case "json": {
      const value = output.value as Record<string, unknown> | null;
      const summary =
        value && typeof value === "object" && typeof value.summary === "string" ? value.summary : null;
      return { ok: true, text: summary ?? JSON.stringify(output.value) };
    }
    case "text":
      return { ok: true, text: output.value };
    case "error-text":
      return { ok: false, text: output.value };
    case "error-json":
      return { ok: false, text: JSON.stringify(output.value) };
    case "execution-denied":
      return { ok: false, text: output.reason ?? "The action was not allowed." };
    default:
      return { ok: true, text: "Done." };
  }
}

/** The sentence of the instructions that names a transfer number, if any. */
function transferDestination(instructions: string): string | null {
  for (const sentence of instructions.split(/(?<=[.!?\n])\s*/)) {
    if (/transfer|urgent|emergenc|manager|forward/i.test(sentence)) {
      const phone = toPhone(sentence);
      if (phone) return phone;
    }
  }
  return null;
}

/**
 * Instructions that ask for warm transfers ("warm transfers", "transfer … warmly", "introduce the caller
 * first"); not a warm tone ("keep answers short and warm").
 */
const WARM_TRANSFER =
  /\bwarm(ly)?[ -]transfer|\btransfer\w*\b[^.!?\n]{0,40}\bwarm(ly)?\b|\bintroduc(e|ing) (the )?callers?\b/i;

/** The names of the agent's transfer destinations (transferCall's destination `examples`). */
function destinationNames(tools: readonly Tool[]): string[] {
  const schema = tools.find((tool) => tool.name === "transferCall")?.inputSchema as
    | { properties?: { destination?: { examples?: unknown } } }
    | undefined;
  const examples = schema?.properties?.destination?.examples;
  return Array.isArray(examples) ? examples.filter((name): name is string => typeof name === "string") : [];
}

const plainWords = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9+]+/g, " ")
    .trim();

/** The destination the person named ("put me through to sales"; a leading "the" aside), if any. */
function namedDestination(said: string, names: readonly string[]): string | null {
  const words = ` ${plainWords(said)} `;
  for (const name of names) {
    const plain = plainWords(name).replace(/^the /, "");
    if (plain && words.includes(` ${plain} `)) return name;
  }
  return null;
}

/**
 * The keys the instructions say to press in a phone menu, in order ("At the phone menu, press 1, then 3."):
 * the single keys after "press" in the first sentence that has one.
 */
function menuKeys(instructions: string): string[] {
  for (const sentence of instructions.split(/(?<=[.!?\n])\s+/)) {
    const at = sentence.search(/\bpress\b/i);
    if (at < 0) continue;
    const keys = [...sentence.slice(at).matchAll(/(?:^|[\s,])([0-9*#])(?=[\s,.;]|$)/g)].map(
      (m) => m[1] as string,
    );
    if (keys.length > 0) return keys;
  }
  return [];
}

/** A phone menu's choices as it says them: "For sales, press 1." and "Press 2 for support." */
function menuChoices(said: string): { key: string; label: string }[] {
  const choices: { key: string; label: string }[] = [];
  for (const sentence of said.split(/(?<=[.!?;\n])\s+/)) {
    const before = /^(?:for|to|if)\s+(.+?),?\s+press\s+([0-9*#])(?=[\s,.;!]|$)/i.exec(sentence.trim());
    if (before) choices.push({ key: before[2] as string, label: before[1] as string });
    else
      for (const after of sentence.matchAll(/\bpress\s+([0-9*#])\s+(?:for|to)\s+([^,.;!?]+)/gi))
        choices.push({ key: after[1] as string, label: after[2] as string });
  }
  return choices;
}

/** Words a menu's choice stands for, beyond its own (the sandbox has no model to infer "an order" is sales). */
const MENU_SENSES: Record<string, string[]> = {
  sales: ["order", "buy", "purchase", "price", "pricing", "quote"],
  support: ["help", "problem", "broken", "repair", "fix", "technician", "issue", "outage"],
  billing: ["bill", "invoice", "payment", "charge", "refund"],
};
const MENU_FILLER = new Set(["a", "an", "the", "for", "to", "new", "your", "our", "speak", "with", "talk"]);
const stem = (word: string) => (word.length > 3 ? word.replace(/s$/, "") : word);

/**
 * The key of the menu choice that fits what the instructions say the call is for ("…a technician about a
 * broken printer" picks "For support, press 2."), or null when the menu offers none that does.
 */
function chosenKey(said: string, instructions: string): string | null {
  const wanted = new Set(plainWords(instructions).split(" ").map(stem));
  let best: { key: string; score: number } | null = null;
  for (const choice of menuChoices(said)) {
    const words = plainWords(choice.label)
      .split(" ")
      .filter((word) => word && !MENU_FILLER.has(word));
    const senses = new Set(words.flatMap((word) => [word, ...(MENU_SENSES[word] ?? [])]).map(stem));
    const score = [...senses].filter((word) => wanted.has(word)).length;
    if (score > 0 && (!best || score > best.score)) best = { key: choice.key, score };
  }
  return best?.key ?? null;
}

/** At most this many keys on one call when choosing from what menus say (a menu that repeats forever). */
const MAX_CHOSEN_KEYS = 6;

/** Keys pressed so far in the conversation (the sendDtmf calls the agent made). */
function keysPressed(conversation: LanguageModelV3Prompt): number {
  let count = 0;
  for (const message of conversation)
    if (message.role === "assistant" && Array.isArray(message.content))
      for (const part of message.content)
        if (part.type === "tool-call" && part.toolName === "sendDtmf") count++;
  return count;
}

const BOOKING_QUESTIONS = [
  SANDBOX_MESSAGES.askDayAndTime,
  SANDBOX_MESSAGES.askTime,
  SANDBOX_MESSAGES.askName,
];

/** The person's messages of the booking being arranged: the last one, and those before it that answered a booking question or made the request. */
function bookingThread(conversation: LanguageModelV3Prompt): string[] {
  const texts: string[] = [];
  for (let i = conversation.length - 1; i >= 0; i--) {
    const message = conversation[i];
    if (message?.role !== "user") continue;
    texts.unshift(textOf(message.content));
    const before = conversation[i - 1];
    const asked = before?.role === "assistant" ? textOf(before.content) : "";
    if (!BOOKING_QUESTIONS.some((question) => asked.endsWith(question))) break;
  }
  return texts;
}

export function sandboxRespond(
  prompt: LanguageModelV3Prompt,
  tools: readonly Tool[],
  now: number,
): SandboxReply {
  const system = prompt
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n");
  const facts = readPromptFacts(system, now);
  const has = (name: string) => tools.some((tool) => tool.name === name);
  const conversation = prompt.filter((message) => message.role !== "system");
  const last = conversation.at(-1);

  // The knowledge tool answered: the answer from its passages, naming the source.
  if (last?.role === "tool") {
    const found = last.content.find(
      (part) =>
        part.type === "tool-result" && part.toolName === KNOWLEDGE_TOOL && part.output.type === "json",
    );
    if (found?.type === "tool-result" && found.output.type === "json") {
      const question = textOf(conversation.filter((m) => m.role === "user").at(-1)?.content);
      const value = found.output.value as { passages?: unknown } | null;
      const passages = Array.isArray(value?.passages) ? (value.passages as FoundPassage[]) : [];
      const answer = answerFromPassages(question, passages);
      if (answer) return { kind: "text", text: answer };
      const match = bestMatch(question, readKnowledge(facts.instructions));
      return { kind: "text", text: match ? match.item.answer : SANDBOX_MESSAGES.notInKnowledge };
    }
  }

  // A tool answered: word its result for the caller.
  if (last?.role === "tool") {
    const lines: string[] = [];
    for (const part of last.content) {
      if (part.type !== "tool-result") continue;
      const { ok, text } = resultText(part.output);
      lines.push(ok ? `${text}.`.replace(/\.\.$/, ".") : `I couldn't complete ${part.toolName}: ${text}`);
    }
    const allOk = last.content.every(
      (part) => part.type !== "tool-result" || !part.output.type.startsWith("error"),
    );
    // Keys pressed on a menu, a transfer under way: nothing more to ask.
    const onTheLine = last.content.some(
      (part) =>
        part.type === "tool-result" && (part.toolName === "sendDtmf" || part.toolName === "transferCall"),
    );
    return {
      kind: "text",
      text: allOk && !onTheLine ? `${lines.join(" ")} ${SANDBOX_MESSAGES.anythingElse}` : lines.join(" "),
    };
  }

  const userTexts = conversation.filter((m) => m.role === "user").map((m) => textOf(m.content));
  const said = userTexts.at(-1)?.trim() ?? "";
  const lastAssistant = [...conversation].reverse().find((m) => m.role === "assistant");
  const asked = lastAssistant ? textOf(lastAssistant.content) : "";

  if (!said) {
    return { kind: "text", text: facts.greeting ?? "Hello! How can I help you today?" };
  }

  // A call the agent placed reached a phone menu: it presses the keys the instructions name, one per prompt
  // heard; else the key of the choice that fits what the call is for.
  if (has("sendDtmf") && system.includes(STARTED_BY_AGENT)) {
    const keys = menuKeys(facts.instructions);
    const pressed = keysPressed(conversation);
    if (keys.length > 0) {
      if (pressed < keys.length)
        return { kind: "tool", toolName: "sendDtmf", input: { digits: keys[pressed] } };
    } else if (pressed < MAX_CHOSEN_KEYS) {
      const key = chosenKey(said, facts.instructions);
      if (key) return { kind: "tool", toolName: "sendDtmf", input: { digits: key } };
    }
  }

  if (TRANSFER.test(said) && !IDENTITY.test(said)) {
    if (!has("transferCall")) return { kind: "text", text: SANDBOX_MESSAGES.noTransferTool };
    const destination =
      toPhone(said) ??
      namedDestination(said, destinationNames(tools)) ??
      transferDestination(facts.instructions);
    // Without a destination the call goes out as is: the engine's argument check answers, and the
    // sandbox reads that answer back, as a real model would.
    const reason = said.slice(0, 200);
    return {
      kind: "tool",
      toolName: "transferCall",
      input: {
        ...(destination ? { destination } : {}),
        reason,
        // A warm transfer as the instructions ask: the person hears who is calling and why first.
        ...(WARM_TRANSFER.test(facts.instructions)
          ? { mode: "warm", summary: `I have a caller on the line who said: ${reason}` }
          : {}),
      },
    };
  }

  // Booking: a request, or the answer to the booking question the sandbox asked last.
  const continuingBooking =
    asked.endsWith(SANDBOX_MESSAGES.askDayAndTime) ||
    asked.endsWith(SANDBOX_MESSAGES.askTime) ||
    asked.endsWith(SANDBOX_MESSAGES.askName);
  if (has("bookAppointment") && (continuingBooking || (BOOKING.test(said) && !AVAILABILITY.test(said)))) {
    // Details from the request and the answers to the booking questions that followed it.
    const recent = bookingThread(conversation).join(" \n ");
    const today = todayIn(facts.now, facts.timeZone);
    const day = extractDay(said, today) ?? extractDay(recent, today);
    const time = extractTime(said) ?? extractTime(recent);
    let name = recent.match(NAME)?.[1] ?? null;
    if (!name && asked.endsWith(SANDBOX_MESSAGES.askName)) {
      const words = said.replace(/[^A-Za-z' -]/g, " ").trim();
      if (words && words.split(/\s+/).length <= 4) name = words;
    }
    if (!day && !time) return { kind: "text", text: `Happy to book that. ${SANDBOX_MESSAGES.askDayAndTime}` };
    if (!day) return { kind: "text", text: SANDBOX_MESSAGES.askDayAndTime };
    if (!time) {
      if (has("checkAvailability"))
        return { kind: "tool", toolName: "checkAvailability", input: { date: dayText(day) } };
      return { kind: "text", text: SANDBOX_MESSAGES.askTime };
    }
    if (!name) return { kind: "text", text: SANDBOX_MESSAGES.askName };
    const input: Record<string, unknown> = { start: startIso(day, time, facts.timeZone), name };
    const phone = toPhone(recent);
    const email = recent.match(EMAIL)?.[0];
    if (phone) input.phoneNumber = phone;
    if (email) input.email = email;
    return { kind: "tool", toolName: "bookAppointment", input };
  }

  if (has("checkAvailability") && AVAILABILITY.test(said)) {
    const day = extractDay(said, todayIn(facts.now, facts.timeZone));
    if (day) return { kind: "tool", toolName: "checkAvailability", input: { date: dayText(day) } };
    return { kind: "text", text: "Which day should I check?" };
  }

  if (has("sendSms") && SMS.test(said)) {
    const match = bestMatch(said, readKnowledge(facts.instructions));
    const message = match ? match.item.answer : (facts.greeting ?? "Thanks for getting in touch.");
    const to = toPhone(said);
    return { kind: "tool", toolName: "sendSms", input: to ? { to, message } : { message } };
  }

  if (END.test(said)) {
    if (has("endCall"))
      return { kind: "tool", toolName: "endCall", input: { reason: "The caller said goodbye." } };
    return { kind: "text", text: "Thank you, goodbye!" };
  }

  if (has("saveData")) {
    const fields: Record<string, string> = {};
    const name = said.match(NAME)?.[1];
    const email = said.match(EMAIL)?.[0];
    const phone = toPhone(said);
    if (name) fields.name = name;
    if (email) fields.email = email;
    if (phone) fields.phoneNumber = phone;
    if (Object.keys(fields).length > 0) return { kind: "tool", toolName: "saveData", input: { fields } };
  }

  if (GREETING.test(said)) {
    return { kind: "text", text: facts.greeting ?? "Hello! How can I help you today?" };
  }
  if (IDENTITY.test(said)) return { kind: "text", text: SANDBOX_MESSAGES.identity };

  const match = bestMatch(said, readKnowledge(facts.instructions));
  // A question the instructions answer with a Q/A pair is answered from them; anything else is looked up in
  // the agent's knowledge base first, when it has one.
  if (match?.item.kind === "qa" && match.score >= 0.5) return { kind: "text", text: match.item.answer };
  if (has(KNOWLEDGE_TOOL))
    return { kind: "tool", toolName: KNOWLEDGE_TOOL, input: { query: said.slice(0, 500) } };
  if (match) return { kind: "text", text: match.item.answer };
  return { kind: "text", text: SANDBOX_MESSAGES.fallback };
}
