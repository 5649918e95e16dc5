/**
 * A question in a caller's words as the words to look for (offline, deterministic): question words, stop
 * words and filler ("do you", "can I", "please") dropped; each remaining word with the words a page would
 * use for it (a small thesaurus of what callers ask businesses: "park" -> parking, garage; "snakes" ->
 * reptiles; "scared" -> nervous, anxious); and the kind of answer the question asks for ("where" -> an
 * address, "how much" -> a price, "which days" -> days of the week) as words that help but are not needed.
 * The database stems every word (english configuration), so "parking", "parked" and "park" meet.
 */

/** One word of the question and the words that may stand for it, each with its weight (1: the word). */
export type WordGroup = { words: { word: string; weight: number }[]; required: boolean };

/** Weight of a word the thesaurus relates to a word of the question. */
export const RELATED_WEIGHT = 0.7;
/** Weight of a word the kind of question suggests ("where" -> address). */
export const HINT_WEIGHT = 0.35;

const STOP = new Set(
  (
    "a an the and or but if so of to in on at by for with from into onto about as than then that this these those " +
    "there here it its it's is are was were be been being am do does did done doing have has had having " +
    "can could will would shall should may might must i i'm im me my mine myself you you're your yours we our " +
    "ours us they them their he she him her his hers what which where when who whom whose why how " +
    "any some anything something all each every no not yes please thanks thank hi hello hey ok okay just also " +
    "really very much many get got getting go going want wanted need needed like know tell let help " +
    "wondering wonder question ask asking there's what's where's when's who's how's isn't aren't don't doesn't " +
    "dont didn't can't cant won't wouldn't couldn't i'd i'll i've you'd you'll you've we're we've"
  ).split(" "),
);

/**
 * Verbs of a question that an answer often does not repeat ("Do you *treat* reptiles?" answered by "Dr. N
 * sees reptiles"): looked for, but a passage without them can still hold every word of the question.
 */
const SOFT = new Set(
  (
    "see sees treat offer provide take handle work make sell serve bring come find use look carry " +
    "available possible allowed ok"
  ).split(" "),
);

/** Words that mean the same to a caller (each word of a set stands for the others). */
const SYNONYMS: string[][] = [
  ["park", "parking", "garage", "carpark"],
  ["price", "cost", "fee", "charge", "rate", "pricing", "expensive", "cheap"],
  ["pay", "payment", "accept", "paying"],
  ["check", "cheque"],
  ["cancel", "cancellation", "reschedule"],
  ["book", "booking", "reservation", "reserve", "schedule"],
  ["appointment", "visit", "consultation", "checkup", "booking"],
  ["scared", "afraid", "nervous", "anxious", "anxiety", "fear", "phobia", "worried"],
  ["kid", "child", "children", "toddler", "baby", "infant"],
  ["dog", "puppy"],
  ["cat", "kitten"],
  ["pet", "animal"],
  ["reptile", "snake", "lizard", "gecko", "tortoise", "turtle", "iguana", "python", "dragon"],
  ["bird", "parrot", "budgie"],
  ["exotic", "reptile"],
  ["emergency", "urgent", "emergencies"],
  ["night", "overnight", "clock", "24"],
  ["open", "opening", "hours", "close", "closing", "closed"],
  ["address", "location", "located", "directions"],
  ["commercial", "business", "businesses", "office"],
  ["residential", "home", "house"],
  ["vegan", "vegetarian", "plant"],
  ["gluten", "coeliac", "celiac"],
  ["wheelchair", "accessible", "accessibility", "disabled", "ramp"],
  ["deliver", "delivery", "takeaway", "takeout"],
  ["wine", "corkage", "byob"],
  ["gift", "voucher"],
  ["discount", "deal", "offer", "special", "promotion", "off"],
  ["senior", "elderly", "pensioner", "retired"],
  ["guarantee", "warranty", "guaranteed"],
  ["licensed", "license", "licence", "certified", "insured", "qualified"],
  ["estimate", "quote"],
  ["finance", "financing", "instalment", "installment", "monthly"],
  ["unclog", "clog", "blocked", "blockage", "clear"],
  ["toothache", "pain", "ache", "hurt", "sore"],
  ["shot", "vaccination", "vaccine", "injection", "jab", "booster"],
  ["spay", "neuter", "neutering", "castrate", "spaying"],
  ["microchip", "chip"],
  ["bus", "transit", "train", "transport"],
  ["party", "event", "function", "celebration", "private"],
  ["people", "guest", "person", "group", "party"],
  ["patient", "client", "customer"],
  ["phone", "call", "telephone", "number"],
  ["email", "mail"],
  ["wifi", "internet"],
  ["heater", "boiler"],
  ["tankless", "demand"],
  ["repair", "fix", "mend"],
  ["install", "installation", "fit", "replace", "replacement"],
  ["dress", "attire", "wear"],
  ["menu", "dish", "food"],
  ["lunch", "noon"],
  ["dinner", "evening"],
  ["late", "evening"],
  ["room", "space", "venue"],
  ["staff", "team", "vet", "doctor", "dentist"],
  ["allergy", "allergies", "nut"],
  ["teeth", "tooth"],
  ["whitening", "whiten", "bleaching"],
  ["sewer", "drain", "line"],
  ["camera", "video", "inspection"],
  ["validate", "validated", "ticket"],
  ["long", "last", "lasts"],
  ["today", "same-day"],
];

/** Words a word leads to, one way: a word for many things, and the things ("days" -> monday, ...). */
const NARROWER: Record<string, string[]> = {
  day: [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "weekday",
    "weekend",
    "daily",
  ],
  weekday: ["monday", "tuesday", "wednesday", "thursday", "friday"],
  weekend: ["saturday", "sunday"],
  week: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  time: ["hours", "open", "am", "pm"],
  late: ["pm", "evening", "7pm", "8pm", "9pm"],
  night: ["pm", "evening", "24"],
  much: ["price", "cost", "fee"],
  insurance: ["insurer", "plan", "claim"],
  plumbing: ["plumber"],
  plumber: ["plumbing"],
};

/** The kind of answer a question asks for, as words of such answers (optional, low weight). */
const HINTS: [RegExp, string[]][] = [
  [/\bwhere\b/, ["address", "located", "street", "directions", "location"]],
  [/\bhow (much|expensive)\b|\bcost\b|\bprice\b/, ["cost", "price", "fee"]],
  [/\bwhat time\b|\bwhen\b|\bhours\b/, ["hours", "open", "am", "pm", "until"]],
  [/\bhow long\b/, ["minutes", "hours", "days", "years", "takes", "lasts"]],
  [/\b(which|what) days?\b/, ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]],
  [/\bhow (fast|quick|soon)\b/, ["minutes", "hours", "within"]],
  [/\bwho\b/, ["call", "phone", "contact"]],
];

/** A word and the forms it may come from ("parks" -> park, "clinics" -> clinic, "parked" -> park). */
function forms(word: string): string[] {
  const out = [word];
  if (word.endsWith("ies") && word.length > 4) out.push(`${word.slice(0, -3)}y`);
  if (word.endsWith("es") && word.length > 4) out.push(word.slice(0, -2));
  if (word.endsWith("s") && !word.endsWith("ss") && word.length > 3) out.push(word.slice(0, -1));
  if (word.endsWith("ing") && word.length > 5) out.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.endsWith("ed") && word.length > 4) out.push(word.slice(0, -2), word.slice(0, -1));
  return out;
}

const related = new Map<string, Set<string>>();
for (const set of SYNONYMS)
  for (const word of set) {
    const others = related.get(word) ?? new Set<string>();
    for (const other of set) if (other !== word) others.add(other);
    related.set(word, others);
  }
for (const [word, narrower] of Object.entries(NARROWER)) {
  const others = related.get(word) ?? new Set<string>();
  for (const other of narrower) others.add(other);
  related.set(word, others);
}

/** The words of a text: lower case, letters, digits and inner apostrophes or hyphens. */
export function wordsOf(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? []
  ).map((word) => word.replace(/'s$/, ""));
}

/** The groups of words to look for in a question (see the file's comment). */
export function questionWords(question: string): WordGroup[] {
  const words = wordsOf(question);
  let content = words.filter((word) => !STOP.has(word));
  if (content.length === 0) content = words;
  const groups: WordGroup[] = [];
  const seen = new Set<string>();
  for (const word of content) {
    if (seen.has(word)) continue;
    seen.add(word);
    const group: WordGroup = { words: [{ word, weight: 1 }], required: !SOFT.has(word) };
    const extra = new Set<string>();
    for (const form of forms(word)) for (const other of related.get(form) ?? []) extra.add(other);
    for (const other of extra) if (other !== word) group.words.push({ word: other, weight: RELATED_WEIGHT });
    groups.push(group);
  }
  const lower = words.join(" ");
  for (const [pattern, hint] of HINTS)
    if (pattern.test(lower))
      groups.push({ words: hint.map((word) => ({ word, weight: HINT_WEIGHT })), required: false });
  return groups;
}
