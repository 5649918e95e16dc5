/**
 * Built-in agent templates of the demo: real starting points with the fields the onboarding wizard asks
 * for, the integrations they need and their actions and apps. `{key}` in the instructions are the fields.
 */
export type DemoTemplate = {
  name: string;
  description: string;
  body: Record<string, unknown>;
};

const app = (appId: string) => ({ appId, version: "1.0.0" });

export const DEMO_TEMPLATES: readonly DemoTemplate[] = [
  {
    name: "Dental clinic receptionist",
    description:
      "Answers calls for a dental practice, books check-ups and cleanings, and passes emergencies on.",
    body: {
      agentInstructions: [
        "You are the friendly receptionist of {clinicName}, a dental practice at {address}.",
        "Opening hours: {hours}. Insurance accepted: {insurance}.",
        "Address: {address}. Parking: free parking behind the building.",
        "New patients are welcome: please arrive 10 minutes early to fill in a short form.",
        "Help callers book, move or cancel appointments (check-ups 30 minutes, cleanings 60 minutes).",
        "For tooth pain, swelling or a broken tooth, treat it as urgent: offer the first free time today or",
        "transfer the call to {transferNumber}. Never give medical advice. Keep answers short and warm.",
        "",
        "Frequently asked questions:",
        "Q: Do you see children?",
        "A: Yes, we see children from age 3, and their first visit is free.",
        "Q: How much is a cleaning?",
        "A: A cleaning is $120 without insurance; most PPO plans cover two cleanings a year.",
        "Q: Do you offer teeth whitening?",
        "A: Yes, in-office whitening takes about an hour and costs $350.",
        "Q: What should I do in a dental emergency?",
        "A: Call us right away: we keep time free every day for emergencies, and urgent calls go to {transferNumber}.",
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
        "Services: {services}. Find out the caller's name, address, the kind of damage, the roof type and age,",
        "and whether an insurance claim is open. Save these with the collect data function, then tell the caller",
        "an estimator will call back within one business day and text them a summary. Urgent leaks: give {callbackNumber}.",
        "",
        "Q: Are estimates free?",
        "A: Yes, roof inspections and estimates are free and take about an hour.",
        "Q: Do you work with insurance companies?",
        "A: Yes, we document the damage with photos and meet the adjuster on site.",
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
    description:
      "Takes table reservations, answers questions about the menu and hours, and confirms by text.",
    body: {
      agentInstructions: [
        "You take reservations for {restaurantName}, serving {cuisine}. Hours: {hours}.",
        "Book tables for up to {maxPartySize} guests; larger parties are passed to the manager.",
        "Ask for name, party size, date and time, and any allergies. Confirm the booking by text message.",
        "",
        "Q: Do you have vegetarian dishes?",
        "A: Yes, about half of the menu is vegetarian, and the kitchen can make most pasta dishes vegan.",
        "Q: Can I bring my dog?",
        "A: Dogs are welcome on the terrace, not inside.",
      ].join("\n"),
      greeting: "Good evening, {restaurantName}, would you like to book a table?",
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
