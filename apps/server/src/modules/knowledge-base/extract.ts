import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { Readability } from "@mozilla/readability";
import { cleanText, decodeText, truncateText } from "@switchboard/core";
import { parseHTML } from "linkedom";

/**
 * Documents to text: HTML through Mozilla's Readability (the article, without navigation and footers) over
 * linkedom, PDFs through pdf.js, and plain text, Markdown and CSV as they are. The text keeps its
 * paragraphs (blank lines) and headings (`# ` lines) so the chunker can split on them.
 */

export type ExtractedText = { title: string; text: string };

export type DocumentFormat = "html" | "pdf" | "text" | "markdown" | "csv";

const BLOCKS = new Set([
  "P",
  "DIV",
  "SECTION",
  "ARTICLE",
  "LI",
  "TR",
  "BLOCKQUOTE",
  "PRE",
  "DD",
  "DT",
  "FIGCAPTION",
  "TABLE",
  "UL",
  "OL",
  "DL",
  "BR",
  "HR",
  "MAIN",
  "HEADER",
  "FOOTER",
  "ADDRESS",
]);
const HEADINGS = new Set(["H1", "H2", "H3", "H4", "H5", "H6"]);

type DomNode = {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
};

/** The text of a DOM subtree with block elements on their own lines and headings as `# ` lines. */
function blockText(root: DomNode): string {
  const out: string[] = [];
  const walk = (node: DomNode) => {
    if (node.nodeType === 3) {
      out.push((node.textContent ?? "").replace(/\s+/g, " "));
      return;
    }
    if (node.nodeType !== 1) return;
    const name = node.nodeName.toUpperCase();
    if (name === "SCRIPT" || name === "STYLE" || name === "NOSCRIPT" || name === "TEMPLATE") return;
    if (HEADINGS.has(name)) {
      out.push(`\n\n# ${(node.textContent ?? "").replace(/\s+/g, " ").trim()}\n\n`);
      return;
    }
    const block = BLOCKS.has(name);
    if (block) out.push("\n\n");
    if (name === "TD" || name === "TH") out.push(" ");
    for (let i = 0; i < node.childNodes.length; i++) walk(node.childNodes[i] as DomNode);
    if (block) out.push("\n\n");
  };
  walk(root);
  return normaliseText(out.join(""));
}

/** Paragraphs separated by one blank line, lines trimmed, no runs of spaces. */
export function normaliseText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * A page as a whole document: linkedom, unlike a browser, builds no `<html>` and `<body>` around a page or
 * fragment that has none, and then finds no text in it (or fails on plain text served as HTML).
 */
function asDocument(html: string): string {
  if (/<body[\s>]/i.test(html)) return html;
  const head = html.match(/<head[\s>][\s\S]*?<\/head>/i)?.[0] ?? "";
  const rest = html.replace(/<!doctype[^>]*>|<\/?html[^>]*>|<head[\s>][\s\S]*?<\/head>/gi, "");
  return `<!doctype html><html>${head}<body>${rest}</body></html>`;
}

type Element = {
  nodeName: string;
  textContent: string | null;
  parentElement: Element | null;
  closest(selector: string): Element | null;
  querySelectorAll(selector: string): ArrayLike<Element>;
  remove(): void;
};

/** Parts of a page around its content: menus, banners, sidebars, footers, breadcrumbs, skip links. */
const CHROME = [
  "nav",
  "aside",
  "menu",
  "dialog",
  "[role=navigation]",
  "[role=banner]",
  "[role=contentinfo]",
  "[role=menu]",
  "[role=menubar]",
  "[role=search]",
  "[role=complementary]",
  "[aria-hidden=true]",
  "a[href^='#']",
].join(", ");
const CHROME_NAMES = new Set(
  (
    "nav navbar navigation main-nav site-nav main-menu nav-menu menu-main menu-item breadcrumb breadcrumbs " +
    "skip-link sidebar cookie-banner cookie-notice topbar top-bar site-header site-footer header footer"
  ).split(" "),
);
/** Elements whose text, when mostly link captions, is navigation rather than content. */
const LINKABLE_BLOCKS = "p, li, dd, dt, td, th, div, section, span, blockquote, h1, h2, h3, h4, h5, h6";
/** A link whose text is longer than this wraps content (a card), not a caption. */
const CAPTION_CHARS = 80;
/** Words that introduce a link caption: "see our …", "read about …", "learn more". */
const CAPTION_LEAD =
  /\b(see|read|visit|browse|check out|find out|learn|ask about|discover|explore|click|more)\b/i;

const letters = (text: string | null) => (text ?? "").replace(/[^\p{L}\p{N}]+/gu, "").length;

/**
 * Removes what is not the page's own content before it is read: navigation, banners, sidebars, the page
 * header and footer (outside the article), and blocks that are mostly link captions ("See our parking and
 * whitening pages", a list of links), which name other pages' topics without saying anything about them.
 */
function stripChrome(document: { querySelectorAll(selector: string): ArrayLike<Element> }): void {
  const all = (selector: string) => Array.from(document.querySelectorAll(selector));
  for (const element of all(CHROME)) element.remove();
  for (const element of all("header, footer"))
    if (!element.parentElement?.closest("main, article, [role=main]")) element.remove();
  // By class or id only outside the article (a "menu" section of a restaurant's page is content).
  for (const element of all("[class], [id]")) {
    const named = element as unknown as Element & { className?: string; id?: string };
    const tokens = `${named.className ?? ""} ${named.id ?? ""}`.toLowerCase().split(/\s+/);
    if (!tokens.some((token) => CHROME_NAMES.has(token))) continue;
    if (element.closest("main, article, [role=main]")) continue;
    if (element.querySelectorAll("main, article, [role=main]").length > 0) continue;
    element.remove();
  }
  // Innermost first (the reverse of document order), so a block is judged on what its children left.
  for (const block of all(LINKABLE_BLOCKS).reverse()) {
    const total = letters(block.textContent);
    if (total === 0) continue;
    let linked = 0;
    let links = 0;
    for (const link of Array.from(block.querySelectorAll("a"))) {
      const text = (link.textContent ?? "").trim();
      if (!text || text.length > CAPTION_CHARS) continue;
      linked += letters(text);
      links++;
    }
    if (links === 0) continue;
    const share = linked / total;
    const caption =
      (block.textContent ?? "").trim().length < 200 &&
      (links >= 2 || CAPTION_LEAD.test(block.textContent ?? ""));
    if (share >= 0.5 || (share >= 0.25 && caption)) block.remove();
  }
}

export function htmlToText(page: string, fallbackTitle = ""): ExtractedText {
  const html = asDocument(page);
  const { document } = parseHTML(html);
  const pageTitle = (document.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
  const h1 = (document.querySelector("h1")?.textContent ?? "").replace(/\s+/g, " ").trim();
  stripChrome(document as unknown as Parameters<typeof stripChrome>[0]);
  const content = document.toString();
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    // Readability changes the document it reads: give it its own copy.
    article = new Readability(
      parseHTML(content).document as unknown as ConstructorParameters<typeof Readability>[0],
      {
        charThreshold: 100,
      },
    ).parse();
  } catch {
    article = null;
  }
  let text = "";
  if (article?.content)
    text = blockText(parseHTML(`<html><body>${article.content}</body></html>`).document.body);
  // Short pages (a contact page, an FAQ of a few lines) are often not "articles": take the whole of the
  // page's main element (or body), what is left of it once its navigation is gone.
  const main = document.querySelector("main, [role=main]") ?? document.body;
  const whole = main ? blockText(main as unknown as DomNode) : "";
  if (text.length < 200 && whole.length > text.length) text = whole;
  return { title: article?.title?.trim() || pageTitle || h1 || fallbackTitle, text };
}

/** A CSV as lines of `header: value` pairs, one row a paragraph, so each row is findable on its own. */
export function csvToText(csv: string): string {
  const rows = parseCsv(csv);
  const header = rows[0];
  if (!header || rows.length < 2) return normaliseText(csv);
  return rows
    .slice(1)
    .filter((row) => row.some((cell) => cell.trim()))
    .map((row) =>
      row
        .map((cell, index) => `${header[index]?.trim() || `Column ${index + 1}`}: ${cell.trim()}`)
        .join("; "),
    )
    .join("\n\n");
}

function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += char;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Markdown headings become `# ` lines; emphasis, links and images keep only their text. */
export function markdownToText(markdown: string): ExtractedText {
  const title = markdown.match(/^\s*#\s+(.+)$/m)?.[1]?.trim() ?? "";
  const text = markdown
    .replace(/```[\s\S]*?```/g, (block) => block.replace(/```\w*/g, ""))
    .replace(/^\s*#{1,6}\s+(.+)$/gm, "\n# $1\n")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/^\s*[-*+]\s+/gm, "- ");
  return { title, text: normaliseText(text) };
}

const require = createRequire(import.meta.url);
let pdfjs: Promise<typeof import("pdfjs-dist/legacy/build/pdf.mjs")> | null = null;

/** The text of a PDF, page by page (pdf.js; no rendering, no fonts loaded). */
export async function pdfToText(data: Uint8Array): Promise<ExtractedText> {
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  const lib = await pdfjs;
  const fontDir = path.join(path.dirname(require.resolve("pdfjs-dist/package.json")), "standard_fonts/");
  const document = await lib.getDocument({
    data: new Uint8Array(data),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: fontDir,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str;
        text += item.hasEOL ? "\n" : item.str.endsWith(" ") ? "" : " ";
      }
      pages.push(text);
      page.cleanup();
    }
    const info = (await document.getMetadata().catch(() => null))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === "string" ? info.Title.trim() : "";
    // Lines of a page that run on (no full stop) are one paragraph; blank lines stay.
    return { title, text: normaliseText(pages.join("\n\n")) };
  } finally {
    await document.destroy();
  }
}

/** The format of a document from its content type and name, or null when it is none we read. */
export function formatOf(contentType: string | null, name: string | null): DocumentFormat | null {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const extension = (name ?? "").toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? "";
  if (type === "application/pdf" || extension === "pdf") return "pdf";
  if (type === "text/html" || type === "application/xhtml+xml" || extension === "html" || extension === "htm")
    return "html";
  if (type === "text/markdown" || extension === "md" || extension === "markdown") return "markdown";
  if (type === "text/csv" || extension === "csv") return "csv";
  if (type.startsWith("text/") || extension === "txt" || extension === "text") return "text";
  return null;
}

/**
 * Reads a document of a known format, as clean text: bytes that are not UTF-8 become U+FFFD, and NUL,
 * control characters, lone surrogates and noncharacters (which the database or XML refuse) are dropped.
 */
export async function extractText(
  format: DocumentFormat,
  data: Uint8Array,
  fallbackTitle: string,
): Promise<ExtractedText> {
  const extracted = await extractFormat(format, data, cleanText(fallbackTitle));
  return { title: cleanText(extracted.title), text: cleanText(extracted.text) };
}

async function extractFormat(format: DocumentFormat, data: Uint8Array, fallbackTitle: string) {
  if (format === "pdf") {
    const result = await pdfToText(data);
    return { title: result.title || fallbackTitle, text: result.text };
  }
  const text = decodeText(data);
  if (format === "html") return htmlToText(text, fallbackTitle);
  if (format === "markdown") {
    const result = markdownToText(text);
    return { title: result.title || fallbackTitle, text: result.text };
  }
  if (format === "csv") return { title: fallbackTitle, text: csvToText(text) };
  return { title: fallbackTitle, text: normaliseText(text) };
}

export const contentHashOf = (text: string) => createHash("sha256").update(text).digest("hex");

/** A passage of a document: the heading it sits under and its text. */
export type Chunk = { heading: string; content: string };

const TARGET_CHARS = 900;
const MAX_CHARS = 1400;

/**
 * Splits a document's text into passages of about 900 characters on paragraph boundaries (sentences when
 * one paragraph is longer), each remembering the document title and the heading it is under, so a search
 * for words of the heading finds the passages below it.
 */
export function chunkText(title: string, text: string): Chunk[] {
  const chunks: Chunk[] = [];
  let heading = "";
  let current: string[] = [];
  let size = 0;
  const headingOf = () => [title, heading].filter(Boolean).join(" — ");
  const flush = () => {
    if (current.length === 0) return;
    chunks.push({ heading: headingOf(), content: current.join("\n\n") });
    current = [];
    size = 0;
  };
  const pieces: string[] = [];
  for (const paragraph of text.split(/\n{2,}/)) {
    const trimmed = paragraph.trim();
    if (!trimmed) continue;
    if (trimmed.length <= MAX_CHARS) {
      pieces.push(trimmed);
      continue;
    }
    let part = "";
    for (const sentence of trimmed.split(/(?<=[.!?])\s+/)) {
      if (part && part.length + sentence.length > TARGET_CHARS) {
        pieces.push(part);
        part = "";
      }
      part = part ? `${part} ${sentence}` : sentence;
      while (part.length > MAX_CHARS) {
        // Never between the halves of a surrogate pair (an emoji): each half alone is not text.
        const piece = truncateText(part, MAX_CHARS);
        pieces.push(piece);
        part = part.slice(piece.length);
      }
    }
    if (part) pieces.push(part);
  }
  for (const piece of pieces) {
    const isHeading = /^#\s+/.test(piece) && piece.length < 200 && !piece.includes("\n");
    if (isHeading) {
      flush();
      heading = piece.replace(/^#\s+/, "").trim();
      continue;
    }
    if (size > 0 && size + piece.length > TARGET_CHARS) flush();
    current.push(piece);
    size += piece.length + 2;
  }
  flush();
  return chunks;
}
