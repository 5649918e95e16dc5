/**
 * The website widget: `<script src="https://<switchboard>/widget.js" data-username="<page>" async></script>`
 * on any site adds a chat button that opens the page's chat (`/{username}?embed=chat`) in a frame. Plain
 * DOM, no framework: it must stay small (bench/widget-size.bench.ts) and never disturb the host page.
 */

type WidgetApi = { open(): void; close(): void; toggle(): void };

function install(): WidgetApi | null {
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return null;
  const source = new URL(script.src);
  const username = script.dataset.username ?? source.searchParams.get("username");
  if (!username) {
    console.warn('Switchboard widget: add data-username="<your page\'s username>" to the script tag.');
    return null;
  }
  const label = script.dataset.label ?? "Chat with us";
  const color = script.dataset.color ?? "#1864ab";
  const host = document.createElement("div");
  host.setAttribute("data-switchboard-widget", username);
  const root = host.attachShadow({ mode: "open" });
  root.innerHTML = `<style>
:host{all:initial}
button{position:fixed;right:20px;bottom:20px;z-index:2147483646;min-height:48px;padding:0 20px;border:0;border-radius:24px;background:${color};color:#fff;font:600 16px system-ui,sans-serif;box-shadow:0 4px 14px rgba(0,0,0,.25);cursor:pointer}
button:focus-visible{outline:3px solid #000;outline-offset:2px}
.panel{position:fixed;right:20px;bottom:80px;z-index:2147483647;width:min(380px,calc(100vw - 40px));height:min(560px,calc(100vh - 110px));border-radius:12px;overflow:hidden;box-shadow:0 8px 30px rgba(0,0,0,.3);background:#fff}
.panel[hidden]{display:none}
iframe{border:0;width:100%;height:100%}
</style><div class="panel" hidden></div><button type="button" aria-expanded="false"></button>`;
  const button = root.querySelector("button") as HTMLButtonElement;
  const panel = root.querySelector(".panel") as HTMLDivElement;
  button.textContent = label;
  let frame: HTMLIFrameElement | null = null;

  const open = () => {
    if (!frame) {
      frame = document.createElement("iframe");
      frame.title = label;
      frame.src = `${source.origin}/${encodeURIComponent(username)}?embed=chat`;
      frame.allow = "microphone";
      panel.append(frame);
    }
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
    button.textContent = "Close chat";
    frame.focus();
  };
  const close = () => {
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    button.textContent = label;
  };
  const toggle = () => (panel.hidden ? open() : close());
  button.addEventListener("click", toggle);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      close();
      button.focus();
    }
  });
  const attach = () => document.body.append(host);
  if (document.body) attach();
  else document.addEventListener("DOMContentLoaded", attach);
  return { open, close, toggle };
}

const widget = install();
if (widget) (window as unknown as { SwitchboardWidget?: WidgetApi }).SwitchboardWidget = widget;
