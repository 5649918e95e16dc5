import { escapeHtml } from "../../http/html.ts";

/**
 * The sandbox's stand-in for Google's consent screen: which sandbox Google account connects, and allow or
 * cancel. Plain HTML (it is not part of the app), accessible, and it posts back to itself.
 */
export function sandboxConsentPage(input: { state: string; redirectUri: string; email: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox Google: allow access to your calendar</title>
<style>
body{font-family:system-ui,sans-serif;background:#f1f3f4;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center;color:#202124}
main{background:#fff;border-radius:8px;padding:32px;max-width:420px;width:100%;box-shadow:0 1px 3px rgba(0,0,0,.2)}
h1{font-size:22px;margin:0 0 8px}p{line-height:1.5}label{display:block;font-weight:600;margin:16px 0 4px}
input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #5f6368;border-radius:4px;font-size:16px}
.actions{display:flex;gap:12px;justify-content:flex-end;margin-top:24px}
button{padding:10px 20px;border-radius:4px;font-size:15px;cursor:pointer;border:1px solid #1a73e8}
.allow{background:#1a73e8;color:#fff}.deny{background:#fff;color:#1a73e8}
.note{font-size:13px;color:#5f6368}
</style>
</head>
<body>
<main>
<h1>Switchboard wants to access your Google Calendar</h1>
<p>This is the offline sandbox of Google sign-in. Switchboard will be able to see when you are busy and add the appointments your agent books.</p>
<form method="post" action="/sandbox/google/consent">
<input type="hidden" name="state" value="${escapeHtml(input.state)}">
<input type="hidden" name="redirect_uri" value="${escapeHtml(input.redirectUri)}">
<label for="email">Sandbox Google account</label>
<input id="email" name="email" type="email" required value="${escapeHtml(input.email)}" autocomplete="email">
<p class="note">No real Google account is used: any address works and gets its own sandbox calendars.</p>
<div class="actions">
<button class="deny" type="submit" name="decision" value="deny">Cancel</button>
<button class="allow" type="submit" name="decision" value="allow">Allow</button>
</div>
</form>
</main>
</body>
</html>`;
}
