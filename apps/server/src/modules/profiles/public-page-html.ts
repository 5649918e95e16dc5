import type { PublicPage } from "@switchboard/api";
import { formatPhoneNumber } from "@switchboard/core";
import { escapeHtml } from "../../http/html.ts";
import { CARD_HEIGHT, CARD_WIDTH } from "./card-png.ts";

const SAFE_HREF = /^(?:https?:\/\/|mailto:|tel:)/i;

/** A social link's address: links as given when safe, handles become a search-free profile link text. */
function socialHref(network: string, value: string): string | null {
  if (SAFE_HREF.test(value)) return value;
  const handle = value.replace(/^@/, "");
  const known: Record<string, string> = {
    x: "https://x.com/",
    twitter: "https://x.com/",
    instagram: "https://instagram.com/",
    facebook: "https://facebook.com/",
    linkedin: "https://linkedin.com/in/",
    tiktok: "https://tiktok.com/@",
    youtube: "https://youtube.com/@",
    github: "https://github.com/",
  };
  const base = known[network.toLowerCase()];
  return base && /^[A-Za-z0-9._-]+$/.test(handle) ? `${base}${handle}` : null;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#1a1b1e;--muted:#495057;--accent:#1864ab;--accent-text:#fff;--border:#dee2e6}
@media (prefers-color-scheme:dark){:root{--bg:#141517;--card:#1f2023;--text:#f1f3f5;--muted:#c1c2c5;--accent:#74c0fc;--accent-text:#0b1a2b;--border:#373a40}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}
main{max-width:36rem;margin:0 auto;padding:2rem 1rem 3rem}
.card{background:var(--card);border:1px solid var(--border);border-radius:12px;padding:1.25rem;margin-bottom:1rem}
header.card{text-align:center}
.avatar{width:96px;height:96px;border-radius:50%;object-fit:cover;display:block;margin:0 auto .75rem;background:var(--border)}
.initial{display:flex;align-items:center;justify-content:center;font-size:2.5rem;font-weight:700;color:var(--muted)}
h1{font-size:1.6rem;margin:.25rem 0}
h2{font-size:1.1rem;margin:0 0 .75rem}
p{margin:.25rem 0}
.muted{color:var(--muted)}
.actions{display:flex;gap:.5rem;justify-content:center;flex-wrap:wrap;margin-top:1rem}
.button,button{display:inline-block;min-height:44px;padding:.6rem 1.1rem;border-radius:8px;border:0;background:var(--accent);color:var(--accent-text);font:inherit;font-weight:600;text-decoration:none;cursor:pointer}
.button.secondary,button.secondary{background:transparent;color:var(--accent);border:2px solid var(--accent)}
ul{list-style:none;margin:0;padding:0}
.links li+li{margin-top:.6rem}
.links a{display:block;text-align:center;padding:.8rem;border:2px solid var(--accent);border-radius:10px;color:var(--text);text-decoration:none;font-weight:600}
.links a:hover,.links a:focus-visible{background:var(--accent);color:var(--accent-text)}
.social{display:flex;gap:.75rem;justify-content:center;flex-wrap:wrap;margin-top:.75rem}
.social a{color:var(--accent)}
a:focus-visible,button:focus-visible,textarea:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.chat-log{min-height:4rem;max-height:22rem;overflow-y:auto;display:flex;flex-direction:column;gap:.5rem;margin-bottom:.75rem}
.msg{padding:.5rem .75rem;border-radius:10px;max-width:85%;white-space:pre-wrap;word-wrap:break-word}
.msg.visitor{align-self:flex-end;background:var(--accent);color:var(--accent-text)}
.msg.agent{align-self:flex-start;background:var(--bg);border:1px solid var(--border)}
[hidden]{display:none!important}
.chat-form{display:flex;gap:.5rem}
.chat-form input{flex:1;min-height:44px;padding:.5rem .75rem;border:1px solid var(--border);border-radius:8px;background:var(--card);color:var(--text);font:inherit}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
.status{min-height:1.5em;font-size:.9rem}
.talk{margin-top:.5rem;border-top:1px solid var(--border);padding-top:.75rem}
.talk .chat-log{margin:.75rem 0 0}
button.hangup{background:#b42318;color:#fff}
footer{text-align:center;font-size:.85rem}
footer a{color:var(--muted)}
body.embed main{padding:0;max-width:none}
body.embed .card{border:0;border-radius:0;margin:0;min-height:100vh;display:flex;flex-direction:column}
body.embed .chat-log{flex:1;max-height:none}
`;

export type RenderOptions = {
  publicUrl: string;
  /** `chat`: only the chat, for the website widget's frame. */
  embed: boolean;
};

function chatSection(page: PublicPage, embed: boolean): string {
  const agent = page.agent;
  if (!agent?.acceptsMessages) return "";
  const greeting = agent.greeting ?? `Hi! Ask ${agent.displayName} anything.`;
  return `<section class="card" aria-labelledby="chat-title" id="chat" data-agent="${escapeHtml(agent.username)}">
<h2 id="chat-title">${embed ? escapeHtml(agent.displayName) : `Chat with ${escapeHtml(agent.displayName)}`}</h2>
<div class="chat-log" id="chat-log" role="log" aria-live="polite" aria-label="Conversation">
<p class="msg agent">${escapeHtml(greeting)}</p>
</div>
<form class="chat-form" id="chat-form" hidden>
<label class="sr-only" for="chat-input">Your message</label>
<input id="chat-input" name="text" autocomplete="off" maxlength="2000" placeholder="Write a message" required>
<button type="submit">Send</button>
</form>
<p class="status muted" id="chat-status" role="status"></p>
<div class="talk" id="talk" hidden>
<button type="button" class="secondary" id="talk-button">Talk to ${escapeHtml(agent.displayName)}</button>
<div class="chat-log" id="call-log" role="log" aria-label="Call" hidden></div>
<p class="status muted" id="call-status" role="status"></p>
</div>
<noscript><p>Chatting needs JavaScript${agent.phoneNumber ? "; you can also call or text us" : ""}.</p></noscript>
</section>`;
}

/**
 * The page's description for search and link previews: its bio, else what a visitor can do there. An
 * agent's own page names the agent once ("Call, text or chat with Front Desk."), never "Front Desk of Front
 * Desk".
 */
export function pageDescription(page: PublicPage): string {
  if (page.bio) return page.bio;
  const name = page.account.displayName;
  const agent = page.agent;
  if (!agent) return `${name} on Switchboard.`;
  const same = agent.displayName.trim().toLowerCase() === name.trim().toLowerCase();
  return same
    ? `Call, text or chat with ${agent.displayName}.`
    : `Call, text or chat with ${agent.displayName} of ${name}.`;
}

/** The public page of an account, complete in the HTML (title, description, Open Graph), with its chat. */
export function renderPublicPage(page: PublicPage, options: RenderOptions): string {
  const { account, agent } = page;
  const name = account.displayName;
  const url = `${options.publicUrl}/${encodeURIComponent(account.username)}`;
  const description = pageDescription(page);
  // A PNG: the big networks do not render SVG previews. An uploaded picture is used as it is.
  const image = account.details.image
    ? new URL(account.details.image, options.publicUrl).toString()
    : `${options.publicUrl}/u/${encodeURIComponent(account.username)}/card.png`;
  const imageMeta = account.details.image
    ? ""
    : `\n<meta property="og:image:type" content="image/png">\n<meta property="og:image:width" content="${CARD_WIDTH}">\n<meta property="og:image:height" content="${CARD_HEIGHT}">\n<meta property="og:image:alt" content="${escapeHtml(name)}">`;
  const phone = agent?.phoneNumber ?? account.switchboardPhoneNumber;
  const avatar = account.details.image
    ? `<img class="avatar" src="${escapeHtml(account.details.image)}" alt="" width="96" height="96">`
    : `<div class="avatar initial" aria-hidden="true">${escapeHtml(name.charAt(0).toUpperCase())}</div>`;
  const links = page.links.length
    ? `<nav class="card" aria-label="Links"><ul class="links">${page.links
        .map(
          (l) => `<li><a href="/api/v1/links/${l.id}/visit" rel="noopener">${escapeHtml(l.title)}</a></li>`,
        )
        .join("")}</ul></nav>`
    : "";
  const social = Object.entries(account.socialLinks)
    .map(([network, value]) => {
      const href = socialHref(network, value);
      return href
        ? `<li><a href="${escapeHtml(href)}" rel="me noopener">${escapeHtml(network)}</a></li>`
        : `<li>${escapeHtml(network)}: ${escapeHtml(value)}</li>`;
    })
    .join("");
  const actions = phone
    ? `<div class="actions"><a class="button" href="tel:${escapeHtml(phone)}">Call ${escapeHtml(formatPhoneNumber(phone))}</a><a class="button secondary" href="sms:${escapeHtml(phone)}">Text us</a></div>`
    : "";
  const body = options.embed
    ? chatSection(page, true) ||
      `<section class="card"><h2>${escapeHtml(name)}</h2><p>This agent is not taking messages yet.</p></section>`
    : `<header class="card">${avatar}<h1>${escapeHtml(name)}</h1>${page.bio ? `<p class="muted">${escapeHtml(page.bio)}</p>` : ""}${
        social ? `<ul class="social" aria-label="Social links">${social}</ul>` : ""
      }${actions}</header>
${links}
${chatSection(page, false)}
<footer><p class="muted">Powered by <a href="${escapeHtml(options.publicUrl)}/app">Switchboard</a></p></footer>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(name)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="canonical" href="${escapeHtml(url)}">
<meta property="og:type" content="profile">
<meta property="og:title" content="${escapeHtml(name)}">
<meta property="og:description" content="${escapeHtml(description)}">
<meta property="og:url" content="${escapeHtml(url)}">
<meta property="og:image" content="${escapeHtml(image)}">${imageMeta}
<meta name="twitter:card" content="${account.details.image ? "summary" : "summary_large_image"}">
<style>${STYLE}</style>
</head>
<body${options.embed ? ' class="embed"' : ""}>
<main>
${body}
</main>
<script src="/public-page.js" defer></script>
</body>
</html>`;
}

/** The Open Graph card of an account without a picture: its name on a plain background. */
export function renderCardSvg(name: string): string {
  const initial = escapeHtml(name.charAt(0).toUpperCase());
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<rect width="1200" height="630" fill="#1864ab"/>
<circle cx="600" cy="250" r="110" fill="#fff"/>
<text x="600" y="290" font-family="system-ui,sans-serif" font-size="120" font-weight="700" text-anchor="middle" fill="#1864ab">${initial}</text>
<text x="600" y="480" font-family="system-ui,sans-serif" font-size="64" font-weight="700" text-anchor="middle" fill="#fff">${escapeHtml(name)}</text>
</svg>`;
}

/** A small page for an address that names no public page. */
export function renderNotFoundPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Page not found</title><style>${STYLE}</style></head><body><main><section class="card"><h1>Page not found</h1><p>No public page has this address. Check the link, or <a href="/app">open Switchboard</a>.</p></section></main></body></html>`;
}
