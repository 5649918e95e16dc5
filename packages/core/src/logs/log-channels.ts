/**
 * The channel of a conversation log row: the conversation's own (`voice` a phone or browser call, `sms` a
 * text exchange, `web` a chat on the public page, the widget or the editor's test chat). Calls are the
 * voice rows; the Calls screen lists them, and every dashboard metric names the channels it counts.
 */
export const LOG_CHANNELS = ["voice", "sms", "web"] as const;
export type LogChannel = (typeof LOG_CHANNELS)[number];

/** What a row of each channel is called in the product's words. */
export const LOG_CHANNEL_LABELS: Readonly<Record<LogChannel, string>> = {
  voice: "calls",
  sms: "texts",
  web: "web chats",
};

/** The same as a title or a choice: "Calls", "Texts", "Web chats". */
export const LOG_CHANNEL_TITLES: Readonly<Record<LogChannel, string>> = {
  voice: "Calls",
  sms: "Texts",
  web: "Web chats",
};

export function isLogChannel(value: unknown): value is LogChannel {
  return typeof value === "string" && (LOG_CHANNELS as readonly string[]).includes(value);
}

/**
 * The channels as a phrase: "calls", "calls and texts", "calls, texts and web chats" (in LOG_CHANNELS
 * order, each once; an unknown channel is left out).
 */
export function describeLogChannels(channels: readonly string[]): string {
  const labels = LOG_CHANNELS.filter((channel) => channels.includes(channel)).map(
    (channel) => LOG_CHANNEL_LABELS[channel],
  );
  if (labels.length <= 1) return labels[0] ?? "";
  return `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
}
