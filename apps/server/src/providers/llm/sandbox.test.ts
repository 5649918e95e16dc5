import { instantOf, isoInZone } from "@switchboard/core";
import { describe, expect, it } from "vitest";
import { extractDay, extractTime } from "./sandbox-dates.ts";
import { bestMatch, readKnowledge } from "./sandbox-knowledge.ts";
import { sandboxRespond } from "./sandbox-responder.ts";

// Tuesday 21 May 2030.
const today = { year: 2030, month: 5, day: 21 };

describe("the sandbox reads dates and times", () => {
  it.each([
    ["tomorrow", "2030-05-22"],
    ["the day after tomorrow", "2030-05-23"],
    ["today please", "2030-05-21"],
    ["on Friday", "2030-05-24"],
    ["next tuesday", "2030-05-28"],
    ["May 30", "2030-05-30"],
    ["3rd of June", "2030-06-03"],
    ["January 5", "2031-01-05"],
    ["2030-07-01", "2030-07-01"],
    ["6/15", "2030-06-15"],
  ])("%s -> %s", (text, expected) => {
    const day = extractDay(text, today);
    expect(
      day && `${day.year}-${String(day.month).padStart(2, "0")}-${String(day.day).padStart(2, "0")}`,
    ).toBe(expected);
  });

  it.each([
    ["at 3pm", { hour: 15, minute: 0 }],
    ["3:30 p.m.", { hour: 15, minute: 30 }],
    ["12am", { hour: 0, minute: 0 }],
    ["at 15:45", { hour: 15, minute: 45 }],
    ["at 10", { hour: 10, minute: 0 }],
    ["at 2", { hour: 14, minute: 0 }],
    ["noon", { hour: 12, minute: 0 }],
    ["in the morning", { hour: 9, minute: 0 }],
    ["no time here", null],
  ])("%s -> %j", (text, expected) => {
    expect(extractTime(text)).toEqual(expected);
  });

  it("puts a wall-clock time in the agent's zone, across daylight saving", () => {
    expect(
      isoInZone(
        instantOf({ year: 2030, month: 1, day: 15, hour: 9, minute: 0 }, "America/New_York"),
        "America/New_York",
      ),
    ).toBe("2030-01-15T09:00:00-05:00");
    expect(
      isoInZone(
        instantOf({ year: 2030, month: 7, day: 15, hour: 9, minute: 0 }, "America/New_York"),
        "America/New_York",
      ),
    ).toBe("2030-07-15T09:00:00-04:00");
  });
});

describe("the sandbox's knowledge", () => {
  const items = readKnowledge(
    [
      "You are the receptionist. Never give medical advice.",
      "Opening hours: Mon-Fri 8am-5pm.",
      "- Parking: free behind the building.",
      "Q: Do you take walk-ins? A: Only for emergencies.",
      "Question: How much is a crown?",
      "Answer: From $900,",
      "depending on the material.",
    ].join("\n"),
  );

  it("finds Q/A pairs (inline and on two lines) and facts, not directives", () => {
    expect(items).toEqual([
      {
        kind: "fact",
        question: "Opening hours: Mon-Fri 8am-5pm.",
        answer: "Opening hours: Mon-Fri 8am-5pm.",
      },
      {
        kind: "fact",
        question: "Parking: free behind the building.",
        answer: "Parking: free behind the building.",
      },
      { kind: "qa", question: "Do you take walk-ins?", answer: "Only for emergencies." },
      { kind: "qa", question: "How much is a crown?", answer: "From $900, depending on the material." },
    ]);
  });

  it("matches by keywords and their synonyms", () => {
    expect(bestMatch("when do you close?", items)?.item.answer).toBe("Opening hours: Mon-Fri 8am-5pm.");
    expect(bestMatch("what does a crown cost", items)?.item.answer).toBe(
      "From $900, depending on the material.",
    );
    expect(bestMatch("can I park my car", items)?.item.answer).toBe("Parking: free behind the building.");
    expect(bestMatch("tell me a joke", items)).toBeNull();
  });
});

describe("the sandbox's replies", () => {
  const system = [
    "Current date and time: Tuesday (2030-05-21T10:00:00-07:00), time zone America/Los_Angeles.",
    "",
    "## Greeting",
    "Hi, Bluebird Dental!",
    "",
    "## Instructions",
    "Opening hours: Mon-Fri 8am-5pm.",
  ].join("\n");
  const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });
  const assistant = (text: string) => ({
    role: "assistant" as const,
    content: [{ type: "text" as const, text }],
  });
  const tools = [{ name: "bookAppointment" }, { name: "transferCall" }];

  it("greets with the agent's greeting", () => {
    expect(sandboxRespond([{ role: "system", content: system }, user("Hello!")], tools, 0)).toEqual({
      kind: "text",
      text: "Hi, Bluebird Dental!",
    });
  });

  it("collects a booking over several messages", () => {
    const prompt = [
      { role: "system" as const, content: system },
      user("I want to book an appointment"),
      assistant("Happy to book that. Which day and time would you like?"),
      user("Thursday at 11am"),
      assistant("What name should I put the appointment under?"),
      user("Jo Park"),
    ];
    expect(sandboxRespond(prompt, tools, 0)).toEqual({
      kind: "tool",
      toolName: "bookAppointment",
      input: { start: "2030-05-23T11:00:00-07:00", name: "Jo Park" },
    });
  });

  it("transfers to the destination the caller names, else to the instructions' number", () => {
    const withNumber = `${system}\nTransfer urgent calls to +15035550100.`;
    const transfer = {
      name: "transferCall",
      inputSchema: { properties: { destination: { examples: ["sales", "the on-call vet"] } } },
    };
    const reply = (said: string) =>
      sandboxRespond([{ role: "system", content: withNumber }, user(said)], [transfer], 0);
    expect(reply("I want to speak to sales.")).toEqual({
      kind: "tool",
      toolName: "transferCall",
      input: { destination: "sales", reason: "I want to speak to sales." },
    });
    expect(reply("Put me through to the on-call vet please")).toMatchObject({
      input: { destination: "the on-call vet" },
    });
    expect(reply("Can I talk to a human?")).toMatchObject({ input: { destination: "+15035550100" } });
    expect(reply("Can I talk to a human?")).not.toHaveProperty("input.mode");
    // A warm tone is not a warm transfer.
    const friendly = `${withNumber}\nKeep answers short and warm.`;
    expect(
      sandboxRespond([{ role: "system", content: friendly }, user("Can I talk to a human?")], [transfer], 0),
    ).not.toHaveProperty("input.mode");
  });

  it("transfers warm, with what the caller said, when the instructions ask for it", () => {
    const warm = `${system}\nWhen you transfer, introduce the caller to the person first.`;
    const warmly = `${system}\nTransfer callers warmly.`;
    const transfer = {
      name: "transferCall",
      inputSchema: { properties: { destination: { examples: ["sales"] } } },
    };
    expect(
      sandboxRespond([{ role: "system", content: warm }, user("Can I speak to sales?")], [transfer], 0),
    ).toEqual({
      kind: "tool",
      toolName: "transferCall",
      input: {
        destination: "sales",
        reason: "Can I speak to sales?",
        mode: "warm",
        summary: "I have a caller on the line who said: Can I speak to sales?",
      },
    });
    expect(
      sandboxRespond([{ role: "system", content: warmly }, user("Can I speak to sales?")], [transfer], 0),
    ).toHaveProperty("input.mode", "warm");
  });

  it("walks a phone menu on a call it placed with the instructions' keys, one per prompt", () => {
    const placed = [
      "You started this conversation: the person did not contact you.",
      system,
      "At Acme's phone menu, press 1, then 3.",
    ].join("\n");
    const keypad = [{ name: "sendDtmf" }];
    const pressed = (digits: string) => [
      {
        role: "assistant" as const,
        content: [
          { type: "tool-call" as const, toolCallId: digits, toolName: "sendDtmf", input: { digits } },
        ],
      },
      {
        role: "tool" as const,
        content: [
          {
            type: "tool-result" as const,
            toolCallId: digits,
            toolName: "sendDtmf",
            output: { type: "json" as const, value: { sent: true, summary: `Pressed ${digits}` } },
          },
        ],
      },
      assistant(`Pressed ${digits}.`),
    ];
    const menu = user("Welcome to Acme. For sales, press 1. For support, press 2.");
    const sales = user("Sales. For new orders, press 3. For billing, press 4.");
    expect(sandboxRespond([{ role: "system", content: placed }, menu], keypad, 0)).toEqual({
      kind: "tool",
      toolName: "sendDtmf",
      input: { digits: "1" },
    });
    // The key's result is said without asking for more.
    expect(
      sandboxRespond([{ role: "system", content: placed }, menu, ...pressed("1").slice(0, 2)], keypad, 0),
    ).toEqual({
      kind: "text",
      text: "Pressed 1.",
    });
    expect(
      sandboxRespond([{ role: "system", content: placed }, menu, ...pressed("1"), sales], keypad, 0),
    ).toEqual({
      kind: "tool",
      toolName: "sendDtmf",
      input: { digits: "3" },
    });
    // Every key pressed: the agent answers as usual. An inbound caller is never keyed at.
    const done = [
      { role: "system" as const, content: placed },
      menu,
      ...pressed("1"),
      sales,
      ...pressed("3"),
      user("Goodbye."),
    ];
    expect(sandboxRespond(done, keypad, 0).kind).toBe("text");
    expect(
      sandboxRespond([{ role: "system", content: `${system}\nAt the menu, press 1.` }, menu], keypad, 0).kind,
    ).toBe("text");
  });

  it("chooses a menu's key from what the menu says when the instructions name none", () => {
    const placed = (goal: string) =>
      ["You started this conversation: the person did not contact you.", system, goal].join("\n");
    const keypad = [{ name: "sendDtmf" }];
    const press = (goal: string, said: string) =>
      sandboxRespond([{ role: "system", content: placed(goal) }, user(said)], keypad, 0);
    const main = "Welcome to Acme. For sales, press 1. For support, press 2.";
    const printer = "You call Acme to get a technician out for Bluebird's broken printer.";
    expect(press(printer, main)).toMatchObject({ toolName: "sendDtmf", input: { digits: "2" } });
    expect(press(printer, "Support. For a technician, press 5.")).toMatchObject({ input: { digits: "5" } });
    const order = "You call Acme to place an order for 200 gloves.";
    expect(press(order, main)).toMatchObject({ input: { digits: "1" } });
    expect(press(order, "Sales. Press 3 for new orders, press 4 for billing.")).toMatchObject({
      input: { digits: "3" },
    });
    // A menu with nothing that fits, or no menu at all: no key, the agent speaks.
    expect(press("You call Acme to ask about their opening hours.", main).kind).toBe("text");
    expect(press(order, "Hello, Acme, Jane speaking.").kind).toBe("text");
  });

  it("says a transfer is not possible without the action", () => {
    expect(
      sandboxRespond([{ role: "system", content: system }, user("Let me talk to a human")], [], 0),
    ).toMatchObject({
      kind: "text",
      text: "Sorry, I can't transfer you right now. Is there anything else I can help you with?",
    });
  });

  it("never speaks about itself or its configuration to the person it answers (a caller may be on the line)", () => {
    const conversation = (said: string) => [{ role: "system" as const, content: system }, user(said)];
    const knowledge = [{ name: "searchKnowledgeBase" }];
    const nothingFound = [
      ...conversation("What is the meaning of life?"),
      {
        role: "tool" as const,
        content: [
          {
            type: "tool-result" as const,
            toolCallId: "sandbox-call-1",
            toolName: "searchKnowledgeBase",
            output: { type: "json" as const, value: { passages: [] } },
          },
        ],
      },
    ];
    const replies = [
      sandboxRespond(conversation("What is the meaning of life?"), [], 0),
      sandboxRespond(conversation("Who are you?"), [], 0),
      sandboxRespond(conversation("Put me through to a human"), [], 0),
      sandboxRespond(nothingFound, knowledge, 0),
    ];
    for (const reply of replies) {
      expect(reply.kind).toBe("text");
      const text = reply.kind === "text" ? reply.text : "";
      expect(text).not.toMatch(/sandbox|model|LLM_PROVIDER|configur|instructions|setting|enabled/i);
      expect(text.length).toBeLessThan(100);
    }
  });
});
