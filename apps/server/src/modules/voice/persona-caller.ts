/**
 * The mind of a simulated caller that plays a persona ("Ann Lee, a new patient, wants to book a cleaning on
 * Tuesday at 10am"): given what the agent said last, the caller's next line, or null to hang up. With a real
 * language model the model plays the persona; with the sandbox it follows the persona's words by rule: it
 * says what it wants, then answers the agent's questions from the persona's facts (name, day, time, number)
 * and says goodbye once the agent is done or asks whether there is anything else.
 */
import { generateText } from "ai";
import type { ResolvedModel } from "../../providers/llm/language-model.ts";

/** The caller's next line given the agent's last words (the greeting first); null: it hangs up. */
export type CallerMind = (agentSaid: string) => Promise<string | null>;

/** At most this many lines a persona says in one call. */
const MAX_LINES = 8;
const GOODBYE = "No, that's all. Thank you, goodbye.";

const WEEKDAY = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow)\b/i;
const TIME = /\b(\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|noon|in the morning|in the afternoon)\b/i;
const PHONE = /(\+?\d[\d\s().-]{6,}\d)/;
const NAME =
  /\b(?:name is|named|called)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)|^([A-Z][a-z]+\s+[A-Z][a-z]+)\b(?=,|\s+(?:is|a|an|who|wants|would|needs|calls|asks))/;

/** What the persona wants, in the caller's own words ("I'd like to book a cleaning on Tuesday at 10am."). */
function opening(persona: string): string {
  const quoted = /["“]([^"”]{3,200})["”]/.exec(persona);
  if (quoted) return quoted[1] as string;
  const patterns: [RegExp, (rest: string) => string][] = [
    [/\b(?:wants|would like|hopes) to\s+([^.;!?]+)/i, (rest) => `I'd like to ${rest}.`],
    [/\b(?:wants|would like)\s+([^.;!?]+)/i, (rest) => `I'd like ${rest}.`],
    [/\bneeds to\s+([^.;!?]+)/i, (rest) => `I need to ${rest}.`],
    [/\bneeds\s+([^.;!?]+)/i, (rest) => `I need ${rest}.`],
    [/\bcalls to\s+([^.;!?]+)/i, (rest) => `I'm calling to ${rest}.`],
    [
      /\basking (?:about\s+)?((?:what|how|when|where|whether|if|which|who)\b[^.;!?]+)/i,
      (rest) => `I'd like to know ${rest}.`,
    ],
    [/\basking (?:about|for)\s+([^.;!?]+)/i, (rest) => `I'm calling about ${rest}.`],
  ];
  for (const [pattern, say] of patterns) {
    const found = pattern.exec(persona);
    if (found)
      return `Hi, ${say(
        (found[1] as string)
          .trim()
          .replace(/\bthey\b/gi, "I")
          .replace(/\btheir\b/gi, "my"),
      )}`;
  }
  return `Hi, ${persona.split(/(?<=[.!?])\s/)[0]?.trim() ?? persona}`;
}

/** The sandbox's persona caller: the persona's own words, by rule. */
export function sandboxPersonaCaller(persona: string): CallerMind {
  const name = NAME.exec(persona);
  const facts = {
    name: (name?.[1] ?? name?.[2] ?? null) as string | null,
    day: WEEKDAY.exec(persona)?.[1] ?? null,
    time: TIME.exec(persona)?.[1] ?? null,
    phone: PHONE.exec(persona)?.[1]?.trim() ?? null,
  };
  let said = 0;
  let leaving = false;
  return async (agentSaid) => {
    if (leaving || said >= MAX_LINES) return null;
    said++;
    if (said === 1) return opening(persona);
    const words = agentSaid.toLowerCase();
    if (/\banything else\b|\bgoodbye\b|\bbye\b/.test(words) || said === MAX_LINES) {
      leaving = true;
      return GOODBYE;
    }
    if (/\bname\b/.test(words)) return facts.name ? `It's ${facts.name}.` : "I'd rather not say.";
    if (/\b(number|phone)\b/.test(words) && facts.phone) return `It's ${facts.phone}.`;
    if (/\b(what|which) day\b|\bwhen\b|\bdate\b/.test(words) && facts.day)
      return facts.time ? `${facts.day} at ${facts.time}, please.` : `${facts.day}, please.`;
    if (/\btime\b/.test(words) && facts.time) return `${facts.time}, please.`;
    if (/\b(booked|confirmed|scheduled|all set)\b/.test(words)) {
      leaving = true;
      return "Great, thank you. Goodbye.";
    }
    if (words.trim().endsWith("?")) return "Yes, please.";
    leaving = true;
    return "Okay, thank you. Goodbye.";
  };
}

/** A real model plays the persona: one short spoken line a turn, or END when the call has done its job. */
export function modelPersonaCaller(model: ResolvedModel, persona: string): CallerMind {
  const transcript: string[] = [];
  let said = 0;
  return async (agentSaid) => {
    if (said >= MAX_LINES) return null;
    if (agentSaid) transcript.push(`Agent: ${agentSaid}`);
    const answer = await generateText({
      model: model.languageModel,
      maxRetries: model.maxRetries,
      timeout: model.timeoutMs,
      system: [
        "You play a person calling a business on the phone, to test its AI agent. Stay in character.",
        `Who you are and what you want: ${persona}`,
        "Answer with only your next spoken line: one or two short sentences, plain words, no stage directions.",
        "When you have what you called for, or the agent ends the call, answer exactly END.",
      ].join("\n"),
      prompt: transcript.length > 0 ? transcript.join("\n") : "(The agent has not spoken yet.)",
    });
    const line = answer.text.trim();
    if (!line || /^END\b/.test(line)) return null;
    said++;
    transcript.push(`You: ${line}`);
    return line.slice(0, 500);
  };
}
