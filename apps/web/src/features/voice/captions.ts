/** Live captions of a call: one entry per caller turn and per stretch of agent speech. */

export type Caption = { id: number; role: "caller" | "agent" | "destination"; text: string; final: boolean };

/**
 * Adds a caption message to the list: the agent's growing text replaces its open (not final) entry, a
 * final one closes it (an empty final one, speech cut before a word was heard, removes it); caller turns
 * arrive final and are appended.
 */
export function addCaption(
  captions: readonly Caption[],
  message: { role: "caller" | "agent" | "destination"; text: string; final: boolean },
  nextId: number,
): Caption[] {
  const openIndex = captions.findLastIndex((c) => c.role === message.role && !c.final);
  if (openIndex >= 0) {
    const open = captions[openIndex] as Caption;
    if (message.final && !message.text) return captions.filter((_, i) => i !== openIndex);
    const next = [...captions];
    next[openIndex] = { ...open, text: message.text, final: message.final };
    return next;
  }
  if (!message.text) return [...captions];
  return [...captions, { id: nextId, ...message }];
}
