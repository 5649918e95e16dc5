/**
 * Built-in agent templates of the demo: real starting points with the fields the onboarding wizard asks
 * for, the integrations they need and their actions and apps. `{key}` in the instructions are the fields.
 * A template states only what its owner fills in: no prices, policies or answers of its own (a caller
 * would take them as the business's word), and no greeting tied to a time of day. `{faq}` is where the
 * owner's own questions and answers go (the Variables panel); without it, that line is left out.
 */
export type DemoTemplate = {
  name: string;
  description: string;
  body: Record<string, unknown>;
};

const app = (appId: string) => ({ appId, version: "1.0.0" });

/** Every template: the agent answers only from what the owner told it. */
const ANSWER_ONLY =
  "Answer only from these instructions and your knowledge base. If you do not know something (a price, a policy, a service), say so and offer to have someone from the team get back to the caller.";

export const DEMO_TEMPLATES: readonly DemoTemplate[] = [
  {
    name: "Dental clinic receptionist",
    description:
      "Answers calls for a dental practice, books check-ups and cleanings, and passes emergencies on.",
    body: {
      agentInstructions: [
        "You are the friendly receptionist of {clinicName}, a dental practice at {address}.",
        "Opening hours: {hours}. Insurance accepted: {insurance}.",
        "Help callers book, move or cancel appointments.",
        "Treat tooth pain, swelling or a broken tooth as urgent and offer the first free time today.",
        "Transfer urgent calls to {transferNumber}.",
        "Never give medical advice. Keep answers short and warm.",
        ANSWER_ONLY,
        "",
        "{faq}",
      ].join("\n"),
      greeting: "Thank you for calling {clinicName}, how can I help you today?",
      templateFields: [
        { key: "clinicName", label: "Practice name", type: "string", placeholder: "Bluebird Dental" },
        { key: "address", label: "Address", type: "string", placeholder: "12 Harbour Street, Portland" },
        { key: "hours", label: "Opening hours", type: "string", value: "Mon-Fri 8am-5pm" },
        {
          key: "insurance",
          label: "Insurance accepted",
          inputType: "select",
          options: [
            { value: "Most major PPO plans" },
            { value: "Delta Dental only" },
            { value: "No insurance" },
          ],
          value: "Most major PPO plans",
        },
        {
          key: "transferNumber",
          label: "Number for urgent calls",
          type: "string",
          placeholder: "+15035550100",
        },
      ],
      templateIntegrations: ["calendar"],
      actions: [
        { name: "schedule", durationMinutes: 30 },
        { name: "transfer", destination: "{transferNumber}" },
      ],
      apps: [app("schedule"), app("call-transfer"), app("end-call")],
      enabledFunctions: {
        "schedule@1.0.0": ["checkAvailability", "bookAppointment"],
        "call-transfer@1.0.0": ["transferCall"],
        "end-call@1.0.0": ["endCall"],
      },
      confirmTransfers: true,
    },
  },
  {
    name: "Roofing lead qualifier",
    description:
      "Qualifies roofing leads (damage, roof type, insurance claim), records them and texts a summary.",
    body: {
      agentInstructions: [
        "You answer calls for {companyName}, a roofing contractor serving {serviceArea}.",
        "Services: {services}.",
        "Find out the caller's name, address, the kind of damage, the roof type and age, and whether an insurance claim is open.",
        "Save these with the collect data function, then tell the caller that the team will call back, and text them a summary.",
        "Urgent leaks: give the caller {callbackNumber}.",
        ANSWER_ONLY,
        "",
        "{faq}",
      ].join("\n"),
      greeting: "Hi, you've reached {companyName}. Are you calling about a roof repair or a replacement?",
      templateFields: [
        { key: "companyName", label: "Company name", type: "string" },
        { key: "serviceArea", label: "Service area", type: "string", placeholder: "Greater Denver" },
        { key: "services", label: "Services", type: "string", value: "repairs, replacements, storm damage" },
        { key: "callbackNumber", label: "Emergency number", type: "string" },
      ],
      templateIntegrations: ["jobnimbus"],
      actions: [
        {
          name: "collectData",
          fields: ["name", "address", "damage", "roofType", "roofAge", "insuranceClaim"],
        },
        { name: "sendSms" },
      ],
      apps: [app("collect-data"), app("send-sms"), app("end-call")],
      enabledFunctions: {
        "collect-data@1.0.0": ["saveData"],
        "send-sms@1.0.0": ["sendSms"],
        "end-call@1.0.0": ["endCall"],
      },
      confirmTransfers: false,
    },
  },
  {
    name: "Restaurant reservations",
    description: "Takes table reservations, answers questions from what you tell it, and confirms by text.",
    body: {
      agentInstructions: [
        "You take reservations for {restaurantName}, serving {cuisine}.",
        "Opening hours: {hours}.",
        "Book tables for up to {maxPartySize} guests. For a larger party, take the caller's name and number for the manager.",
        "Ask for name, party size, date and time, and any allergies. Confirm the booking by text message.",
        ANSWER_ONLY,
        "",
        "{faq}",
      ].join("\n"),
      greeting: "Hello, you've reached {restaurantName}. Would you like to book a table?",
      templateFields: [
        { key: "restaurantName", label: "Restaurant name", type: "string" },
        { key: "cuisine", label: "Cuisine", type: "string", placeholder: "seasonal Italian" },
        { key: "hours", label: "Opening hours", type: "string", value: "Tue-Sun 5pm-10pm" },
        { key: "maxPartySize", label: "Largest party booked by phone", type: "integer", value: "8" },
      ],
      templateIntegrations: ["calendar"],
      actions: [{ name: "schedule", durationMinutes: 90 }, { name: "sendSms" }],
      apps: [app("schedule"), app("send-sms"), app("end-call")],
      enabledFunctions: {
        "schedule@1.0.0": ["checkAvailability", "bookAppointment"],
        "send-sms@1.0.0": ["sendSms"],
        "end-call@1.0.0": ["endCall"],
      },
      confirmTransfers: false,
    },
  },
];
