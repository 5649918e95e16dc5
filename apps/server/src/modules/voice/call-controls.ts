/**
 * What a call's agent tools may do on the line (the runtime's CallControls): accept a transfer to one of
 * the agent's destinations (run by call-transfer.ts once the answer has been said), press keys on the far
 * end, and wait for keys the caller types.
 */
import type { TransferDestination } from "@switchboard/api";
import { wallTimeOf } from "@switchboard/core";
import { dtmfFrames } from "../../audio/dtmf.ts";
import { agentTimeZone, type CallControls } from "../runtime/index.ts";
import type { Call } from "./call-stages.ts";

const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/** Whether a destination takes calls now (its hours, in the agent's time zone; none: always). */
export function openNow(destination: TransferDestination, timeZone: string, now = Date.now()): boolean {
  const hours = destination.hours;
  if (!hours) return true;
  const wall = wallTimeOf(now, timeZone);
  const day = DAYS[new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay()] as string;
  if (!(hours.days as readonly string[]).includes(day)) return false;
  const minute = wall.hour * 60 + wall.minute;
  const [sh, sm] = hours.start.split(":").map(Number) as [number, number];
  const [eh, em] = hours.end.split(":").map(Number) as [number, number];
  return minute >= sh * 60 + sm && minute < eh * 60 + em;
}

const plainName = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/^the\s+/, "")
    .replace(/\s+/g, " ");

/** The destination the agent named: by name (case and a leading "the" aside) or by its number or URI. */
export function findDestination(
  destinations: readonly TransferDestination[],
  named: string,
): TransferDestination | null {
  const wanted = plainName(named);
  return (
    destinations.find((d) => plainName(d.name) === wanted) ??
    destinations.find((d) => d.to.toLowerCase() === named.trim().toLowerCase()) ??
    null
  );
}

/** Without destinations set, a number the agent's own configuration names (its {transferNumber}) is one. */
function configuredNumber(ctx: Call, named: string): string | null {
  const number = named.replace(/[\s().-]/g, "");
  if (!/^\+[1-9]\d{7,14}$/.test(number)) return null;
  const campaign = ctx.subject?.campaign;
  if (!campaign) return null;
  const known = [
    ...Object.values(campaign.variables ?? {}),
    campaign.agentInstructions ?? "",
    ...campaign.actions.map((action) => JSON.stringify(action)),
  ].join(" ");
  return known.includes(number) ? number : null;
}

export function callControls(ctx: Call): CallControls {
  return {
    destinations: ctx.settings.transferDestinations.map((destination) => destination.name),
    transfer(request) {
      const destinations = ctx.settings.transferDestinations;
      const found = findDestination(destinations, request.destination);
      const number = found ? null : configuredNumber(ctx, request.destination);
      if (!found && !number) {
        const names = destinations.map((d) => d.name);
        return {
          accepted: false,
          message: names.length
            ? `${request.destination} is not one of this agent's transfer destinations: ${names.join(", ")}.`
            : "This agent has no transfer destinations: they are set in the agent's call settings.",
        };
      }
      if (found && !openNow(found, agentTimeZone(ctx.subject?.campaign.timezone)))
        return {
          accepted: false,
          message: `${found.name} takes calls only ${found.hours?.days.join(", ")} ${found.hours?.start}-${found.hours?.end}: offer to take a message.`,
        };
      if (ctx.transfer.pending) return { accepted: false, message: "A transfer is already under way." };
      const name = found?.name ?? (number as string);
      const to = found?.to ?? (number as string);
      // A warm transfer dials at once, while the agent still tells the caller to hold on (the person hears
      // the summary when the agent is done); a cold one waits for the words, so whoever answers hears the
      // caller at once.
      ctx.transfer.accept({
        ...request,
        name,
        to,
        ringSeconds: found?.ringSeconds ?? 20,
        decidedAt: performance.now(),
      });
      return { accepted: true, name, to };
    },
    async sendDtmf(digits) {
      if (ctx.finished) return false;
      // The keys go after what the agent said before them.
      await ctx.speech.spoken();
      if (ctx.transport.sendDtmf && (await ctx.transport.sendDtmf(digits))) return true;
      if (ctx.finished) return false;
      // No telephone-events on this line (Twilio's media streams, a browser, a SIP peer that did not offer
      // them): the keys as the tones a telephone plays, heard by any phone menu.
      await ctx.speech.playTones(dtmfFrames(digits));
      return !ctx.finished;
    },
    collectDigits(entry) {
      // The pause counts from the end of the agent's question (keys typed during it count too).
      return ctx.keys.collect(entry, () => ctx.speech.spoken());
    },
  };
}
