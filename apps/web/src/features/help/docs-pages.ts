/**
 * The in-product documentation (the docsPage overlay): short pages on how to use Switchboard, written for
 * the people who run a business's agents. `?docsPage=<slug>` opens a page; `?docsPage` the contents.
 */
export type DocsSection = { heading: string; paragraphs?: string[]; steps?: string[] };
export type DocsPage = { slug: string; title: string; summary: string; sections: DocsSection[] };

export const DOCS_PAGES: readonly DocsPage[] = [
  {
    slug: "getting-started",
    title: "Getting started",
    summary: "Build an agent, test it, give it a number and go live.",
    sections: [
      {
        heading: "Your first agent",
        steps: [
          "On the dashboard, choose Build your agent. Pick a template for your kind of business, or start from scratch.",
          "Answer the questions: your business, opening hours, what the agent should do, its time zone and voice.",
          "Choose Create my agent. The agent is saved as a draft you can keep editing.",
        ],
      },
      {
        heading: "Test before callers do",
        paragraphs: [
          "Open the agent and choose Test your agent to chat with it, or Call to talk with it from the browser. Test conversations are marked as tests: they do not count in your statistics.",
        ],
      },
      {
        heading: "Go live",
        steps: [
          "Publish the agent: callers always reach the published version, never your unsaved draft.",
          "Give it a phone number (Numbers), or forward your existing business line to it.",
          "Follow the checklist on the dashboard until every step is done.",
        ],
      },
    ],
  },
  {
    slug: "agents",
    title: "Agents",
    summary: "Instructions, greeting, tools, versions and publishing.",
    sections: [
      {
        heading: "What an agent knows",
        paragraphs: [
          "An agent follows its instructions, greets callers with its greeting and answers from its knowledge bases. Write instructions as you would brief a new receptionist: who you are, what you offer, what to do and what never to do.",
          "Variables in curly braces, such as {name}, are filled from the caller's contact or from a task's list.",
        ],
      },
      {
        heading: "Tools",
        paragraphs: [
          "Tools let the agent act: book an appointment in your calendar, transfer the call to a person, end the call, or call a webhook of yours. The agent uses a tool only when the conversation needs it.",
        ],
      },
      {
        heading: "Drafts, versions and publishing",
        paragraphs: [
          "Every save keeps a version. Compare changes shows what differs from the published agent; publishing makes the draft what callers reach. If someone else saved the agent while you edited it, you are asked which changes to keep.",
        ],
      },
    ],
  },
  {
    slug: "calls",
    title: "Calls",
    summary: "How the agent listens, answers and is interrupted; recordings and the call log.",
    sections: [
      {
        heading: "A call, turn by turn",
        paragraphs: [
          "The agent speaks first with its greeting. When the caller stops talking, it answers; if the caller speaks while the agent is talking, the agent stops and listens. Short sounds such as “mm-hm” do not interrupt it.",
          "In the agent's call settings you can change how long a pause ends the caller's turn, how easily the agent is interrupted, idle prompts and the longest a call may last.",
        ],
      },
      {
        heading: "Recordings and transcripts",
        paragraphs: [
          "Recording is off by default. When you turn it on for an agent, each call is kept as a stereo recording (caller and agent) that you can play from the call's details in Calls. Every call has its transcript.",
        ],
      },
      {
        heading: "The call log",
        paragraphs: [
          "Calls lists every conversation with its direction, numbers, duration and outcome. Filter, add columns, search, and export what you see as CSV. Dashboards and custom metrics are computed from the same log.",
        ],
      },
    ],
  },
  {
    slug: "numbers",
    title: "Phone numbers",
    summary: "Buy a number, bring your own, forward your line, SIP trunks.",
    sections: [
      {
        heading: "Buy a number",
        steps: [
          "Open Numbers and choose Get a number.",
          "Search by area code, city or a word spelled on the keypad (FLOWERS).",
          "Choose the number and the agent that answers it. It works at once for calls and texts.",
        ],
      },
      {
        heading: "Keep your existing number",
        paragraphs: [
          "Forward your business line to your agent's number: your phone company or your phone system's call forwarding does it. Then use the forwarding check in Numbers: a test call confirms the forwarding reaches the agent.",
          "To show your own number when the agent calls out, verify it as a caller ID: we call it and you enter the code you hear.",
        ],
      },
      {
        heading: "SIP",
        paragraphs: [
          "A phone system (PBX) can send calls to your agents over SIP. In Developers → SIP, allow its addresses, register with it, or add an outbound route so the agent's calls leave through your trunk. Captures of each SIP call can be downloaded for Wireshark.",
        ],
      },
    ],
  },
  {
    slug: "inbox",
    title: "Inbox and texts",
    summary: "Conversations by text and web chat, and when the agent answers.",
    sections: [
      {
        heading: "Conversations",
        paragraphs: [
          "The inbox shows every text and web-chat conversation as it happens. Priority holds those that need a person; the agent folder holds those it handles. Turn the AI agent off in a conversation to answer yourself.",
        ],
      },
      {
        heading: "Texting",
        paragraphs: [
          "Texting needs a phone number that can send texts and, in the United States, a registered business. Request access from the inbox; until it is approved, the agent answers calls only.",
        ],
      },
    ],
  },
  {
    slug: "tasks",
    title: "Tasks",
    summary: "Let the agent call or text a list of people.",
    sections: [
      {
        heading: "Upload a list",
        steps: [
          "Open Tasks and upload a CSV file with a phone number column; name, e-mail, time zone and any other columns become variables the agent can use.",
          "Choose the agent and whether it calls or texts. Rows with a problem are listed with their line number; the others are kept.",
          "Follow the list's progress live; pause, resume or cancel it at any time.",
        ],
      },
      {
        heading: "When the agent calls",
        paragraphs: [
          "Calls are placed within calling hours in each person's time zone, within your daily and concurrent limits, and retried when nobody answers. If a voicemail answers, the agent leaves the voicemail message set in its Prompt panel (or hangs up, if you chose that there). People who reply STOP are not contacted again.",
        ],
      },
    ],
  },
  {
    slug: "knowledge-base",
    title: "Knowledge base",
    summary: "Documents and web pages your agent answers from.",
    sections: [
      {
        heading: "Add knowledge",
        paragraphs: [
          "Create a knowledge base, then add documents (PDF, Word, text) or web pages. They are read and indexed in the background; the list shows their progress. Give the knowledge base to an agent in its editor.",
          "Ask a question in the knowledge base's search to see the passages the agent would find.",
        ],
      },
    ],
  },
  {
    slug: "developers",
    title: "Developers",
    summary: "API keys, webhooks and the sandbox phone.",
    sections: [
      {
        heading: "API keys",
        paragraphs: [
          "An API key acts for your organisation. It is shown once when you create it: keep it in a secret store. Read-only keys cannot change anything. Revoke a key the moment you no longer need it.",
        ],
      },
      {
        heading: "Webhooks",
        paragraphs: [
          "A webhook receives events (new messages, calls started and ended, tasks completed) as signed HTTP requests. Check the signature with the webhook's secret. Failed deliveries are retried; an endpoint that keeps failing is turned off and you are notified.",
        ],
      },
      {
        heading: "The sandbox phone",
        paragraphs: [
          "Without a carrier, numbers live on the sandbox carrier. The phone simulator in Developers texts your agents' numbers from any number and shows their replies, so you can try everything before going live.",
        ],
      },
    ],
  },
  {
    slug: "billing",
    title: "Billing",
    summary: "Plans, the wallet and usage.",
    sections: [
      {
        heading: "Plans and usage",
        paragraphs: [
          "Your plan sets the features you have and the price of minutes, texts and numbers (each plan's Details list its tiers). Free needs no payment; Pro and Business are premium: texting from the inbox and phone numbers of your own. Partners and resellers may set the plan and prices their organisations see.",
          "Billing → Choose a plan opens the payment page; the plan starts, and premium turns on, once the payment is confirmed. It renews every month or year. Manage subscription cancels it: premium turns off at once and the rest of the period is not refunded. The billing portal shows the plan and its period.",
        ],
      },
      {
        heading: "The wallet",
        paragraphs: [
          "Prepaid usage is taken from your wallet. Top it up by card or by lightning; every top-up, charge and refund is listed in its transactions.",
        ],
      },
    ],
  },
];

export function docsPageFor(slug: string): DocsPage | null {
  return DOCS_PAGES.find((page) => page.slug === slug) ?? null;
}
