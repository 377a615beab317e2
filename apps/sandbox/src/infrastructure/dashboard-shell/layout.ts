import { count } from "../i18n/formats.js";
import { activeLocale, LANGUAGE_NAMES, t } from "../i18n/locale.js";
import { stateTone, statusWord } from "../i18n/status-words.js";
import { html, type SafeHtml } from "./html.js";

/** The dashboard's mount point: everything lives under it, and its cookies are scoped to it. */
export const DASHBOARD = "/_sandbox/dashboard";

/** The dashboard's stylesheet, served as a file: the CSP allows no inline style. */
export const STYLESHEET = `
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f6f7f9; }
.skip { position: absolute; left: -9999px; top: 0; background: #fff; color: #16324f; padding: .6rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
header { background: #16324f; color: #fff; padding: .4rem 1rem; display: flex; flex-wrap: wrap; gap: .2rem 1.2rem; align-items: center; }
header a, header .who { color: #fff; } header form { margin-left: auto; }
header a.language { display: inline-flex; align-items: center; min-height: 44px; padding: 0 .5rem; text-decoration: underline; }
header nav { display: flex; flex-wrap: wrap; gap: 0 .2rem; }
header nav a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 .5rem; border-radius: 4px; }
header nav a[aria-current="page"] { background: #fff; color: #16324f; font-weight: 600; }
.menu-toggle { display: none; }
main { padding: 1rem; max-width: 90rem; }
.scroll { max-width: 100%; overflow-x: auto; margin: .6rem 0 1.2rem; }
table { border-collapse: collapse; background: #fff; width: 100%; }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
/* A long unbroken value (a 100-character key name, an account's name) wraps in its cell instead of
   widening the table past the screen; amounts, times, codes and badges stay whole (nowrap). */
td { overflow-wrap: anywhere; }
/* …but a row's name never shrinks to a letter a line: breaking anywhere lets a cell be that narrow. */
td:first-child { min-width: 7rem; }
td.money, th.money { text-align: right; font-variant-numeric: tabular-nums; }
td.money, time, .nowrap, td code { white-space: nowrap; }
.token { display: inline-flex; max-width: 8rem; white-space: nowrap; vertical-align: bottom; }
.token-head { overflow: hidden; text-overflow: ellipsis; min-width: 0; } .token-tail { flex-shrink: 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
/* Whole while the keyboard is in its row; not for a pointer's click, which a widening row would move. */
tr:has(:focus-visible) .token { max-width: none; }
.narrow-only { display: none; }
details.fold > summary { display: none; }
td.description { min-width: 8rem; overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; overflow-wrap: anywhere; } p, li { overflow-wrap: anywhere; }
form.filters { display: flex; gap: .8rem; align-items: end; flex-wrap: wrap; }
label { display: flex; flex-direction: column; font-size: .9rem; gap: .15rem; min-width: 0; max-width: 100%; }
form > *, section > * { min-width: 0; max-width: 100%; }
.error { color: #a4161a; } .status { font-weight: 600; }
.badge { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .85rem; font-weight: 600; white-space: nowrap; border: 1px solid transparent; }
.tone-waiting { background: #fff4ce; color: #5c4300; border-color: #e0c36a; }
.tone-good { background: #e6f4ea; color: #1e5631; border-color: #9fcfad; }
.tone-bad { background: #fde7e9; color: #8a1620; border-color: #f0a8b0; }
textarea { font: 13px/1.4 ui-monospace, monospace; width: 100%; }
button, input, select, textarea { font: inherit; padding: .35rem .6rem; max-width: 100%; }
button, input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"]), select { min-height: 44px; }
button.danger { background: #a4161a; color: #fff; border: 1px solid #7d1013; border-radius: 4px; }
button.primary { background: #16324f; color: #fff; border: 1px solid #0d1f33; border-radius: 4px; }
button.warning { background: #8a4b00; color: #fff; border: 1px solid #5c3200; border-radius: 4px; }
a:focus, button:focus, input:focus, select:focus, textarea:focus, .scroll:focus { outline: 3px solid #f5a623; outline-offset: 1px; }
nav.paging a { display: inline-flex; align-items: center; min-height: 44px; margin-right: .8rem; }
form.inline { display: inline-flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: 0 .8rem .6rem 0; }
form.stacked { display: grid; gap: .7rem; max-width: 32rem; } .field-error { color: #a4161a; font-size: .85rem; }
[aria-invalid="true"] { border: 2px solid #a4161a; }
.notice { background: #e6f4ea; padding: .4rem .7rem; } .warning { background: #fff4ce; color: #5c4300; padding: .4rem .7rem; border-left: 4px solid #e0a800; }
.error-summary { border: 3px solid #a4161a; background: #fff; padding: .4rem 1rem; margin-bottom: 1rem; max-width: 40rem; }
.error-summary h2 { font-size: 1.1rem; margin: .4rem 0; } .error-summary a { color: #a4161a; font-weight: 600; }
.confirm { background: #fff; border: 2px solid #a4161a; padding: .8rem 1rem; max-width: 40rem; }
pre { background: #fff; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
section { margin-bottom: 1.4rem; }
@media (max-width: 48rem) {
  main { padding: .6rem; }
  .js .menu-toggle { display: inline-flex; align-items: center; min-height: 44px; margin-left: auto; background: #fff; color: #16324f; border: 0; border-radius: 4px; }
  .js header nav[data-collapsed] { display: none; }
  header nav { width: 100%; flex-direction: column; }
  header form { margin-left: 0; }
  form.filters > label, form.filters > button { width: 100%; }
  th:first-child, td:first-child { position: sticky; left: 0; background: #fff; z-index: 1; max-width: 40vw; }
  details.fold > summary { display: list-item; min-height: 44px; padding: .6rem .2rem; font-weight: 600; cursor: pointer; }
  .wide-only { display: none; } span.narrow-only { display: inline-flex; }
  /* A list people decide from is a card per row on a phone: what it is, how much, where it stands and
     the decision on the first lines, whole; the rest below, each with its column's name. The headings
     stay for screen readers. */
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  table.cards tr { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .6rem; padding: .5rem .4rem; border-bottom: 1px solid #d0d7de; }
  table.cards td { display: block; border: 0; padding: 0; position: static; background: none; max-width: 100%; }
  table.cards td.detail, table.cards td.decision { flex-basis: 100%; }
  table.cards td.detail { font-size: .85rem; overflow-wrap: anywhere; }
  table.cards td.detail[data-label]::before { content: attr(data-label) ": "; color: #4a5561; }
  table.cards td.detail:empty, table.cards td.wide-only { display: none; }
  table.cards .token { max-width: 10rem; }
  /* A finger's target: every link and button on its own (in a table, a list, a row of actions: a
     paragraph marked .actions) at least 44 px high; a link inside a sentence keeps the line's height,
     as WCAG 2.5.8 allows. Boxes to tick 24 px square. */
  main a:not(p:not(.actions) a), main button { display: inline-flex; align-items: center; min-height: 44px; }
  main input[type="checkbox"], main input[type="radio"] { width: 24px; height: 24px; }
}
`;

/**
 * The dashboard's one script of its own, for a narrow screen: the menu button, and folding the
 * payments' filters (without script, both stay open).
 */
export const DASHBOARD_SCRIPT = `
document.documentElement.classList.add("js");
const menu = document.getElementById("menu-toggle");
const nav = document.getElementById("site-nav");
// On a phone, folded parts (the payments' filters) start closed unless they hold a problem to fix.
if (window.matchMedia("(max-width: 48rem)").matches)
  for (const fold of document.querySelectorAll("details[data-fold-narrow]:not([data-keep-open])")) fold.open = false;
if (menu && nav) {
  nav.setAttribute("data-collapsed", "");
  menu.addEventListener("click", () => {
    const open = menu.getAttribute("aria-expanded") === "true";
    menu.setAttribute("aria-expanded", String(!open));
    if (open) nav.setAttribute("data-collapsed", "");
    else nav.removeAttribute("data-collapsed");
  });
}
`;

/** The tab's icon: the sandbox's initial, drawn (no request leaves the sandbox for it). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#16324f"/><text x="16" y="23" font-family="sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">p</text></svg>`;

/** A workspace's pages, in navigation order: path, English, Turkish. */
const WORKSPACE_NAVIGATION = [
  ["", "Payments", "Ödemeler"],
  ["/payments/new", "New payment", "Yeni ödeme"],
  ["/approvals", "Approvals", "Onaylar"],
  ["/requests", "Request log", "İstek kaydı"],
  ["/faults", "Faults", "Hatalar"],
  ["/reconciliation", "Reconciliation", "Mutabakat"],
  ["/exports", "Exports", "Dışa aktarımlar"],
  ["/outbox", "Outbox", "Giden kutusu"],
  ["/settings/api-keys", "API keys", "API anahtarları"],
  ["/settings/reports", "Reports", "Raporlar"],
  ["/settings/schedules", "Schedules", "Zamanlanmış raporlar"],
  ["/settings", "Settings", "Ayarlar"],
] as const;
/** The gateway's pages. */
const GATEWAY_NAVIGATION = [["/gateway", "Gateway", "Ödeme geçidi"]] as const;

/** Where the header's language link goes: the same page in the other language. */
export const LANGUAGE_PATH = `${DASHBOARD}/language`;

/**
 * The link to the other language, named in that language (as people look for their own). It comes
 * back to the same page by its path only: the query may hold what someone else wrote into a link
 * (a sign-in's `next`), which a page never repeats.
 */
function languageLink(path: string | undefined): SafeHtml {
  const to = activeLocale() === "tr" ? "en" : "tr";
  const other = { to, label: LANGUAGE_NAMES[to] };
  const page = path?.split("?", 1)[0];
  const next = page ? `&next=${encodeURIComponent(page)}` : "";
  return html`<a class="language" href="${LANGUAGE_PATH}?to=${other.to}${next}" lang="${other.to}" hreflang="${other.to}">${other.label}</a>`;
}

/** Who is signed in: a workspace (by its tag) or the gateway. */
export type SignedIn = ({ readonly workspace: string } | { readonly gateway: true }) & {
  readonly csrf: string;
  /** The path asked for: its navigation link is marked as the current page. */
  readonly path?: string;
  /** A count shown beside a navigation link (by its path), such as payments waiting for approval. */
  readonly counts?: Readonly<Record<string, number>>;
};

/** Every table scrolls inside its own box (a region keyboard users can scroll), never the page. */
function boxedTables(markup: string): string {
  return markup
    .replace(
      /<table aria-label="([^"]*)"/g,
      '<div class="scroll" role="region" tabindex="0" aria-label="$1"><table aria-label="$1"',
    )
    .replace(/<\/table>/g, "</table></div>");
}

/** The navigation link that is the page asked for (or holds it: a payment's page is under the overview). */
function currentLink(paths: readonly string[], asked: string | undefined): string | undefined {
  if (asked === undefined) return undefined;
  const path = asked.split("?", 1)[0] ?? "";
  const under = paths.filter((p) => p !== "" && (path === `${DASHBOARD}${p}` || path.startsWith(`${DASHBOARD}${p}/`)));
  return under.sort((a, b) => b.length - a.length)[0] ?? (paths.includes("") ? "" : undefined);
}

/**
 * One page: a skip link, a header with the workspace, navigation and sign out; the content. Pages
 * work without script; htmx (served by the sandbox, nothing from a CDN) only refreshes the live
 * request log, and the dashboard's own script only folds the menu on a narrow screen.
 */
export function page(title: string, content: SafeHtml, session?: SignedIn, path = session?.path): string {
  const navigation = session && "workspace" in session ? WORKSPACE_NAVIGATION : GATEWAY_NAVIGATION;
  const current = session
    ? currentLink(
        navigation.map(([path]) => path),
        session.path,
      )
    : undefined;
  const nav = session
    ? html`<header>
        <strong>payspec sandbox</strong>
        <span class="who">${"workspace" in session ? `${t("Workspace", "Çalışma alanı")} ${session.workspace}` : t("Card gateway", "Kart ödeme geçidi")}</span>
        <button type="button" class="menu-toggle" id="menu-toggle" aria-expanded="false" aria-controls="site-nav">${t("Menu", "Menü")}</button>
        <nav aria-label="${t("Dashboard", "Panel")}" id="site-nav">${navigation.map(([to, en, tr]) => {
          const waiting = session.counts?.[to];
          return html`<a href="${DASHBOARD}${to}" ${current === to ? html`aria-current="page"` : ""}>${t(en, tr)}${waiting ? html` <span class="badge badge-pending">${count(waiting)}</span>` : ""}</a>`;
        })}</nav>
        ${languageLink(path)}
        <form method="post" action="${DASHBOARD}/sign-out">
          <input type="hidden" name="_csrf" value="${session.csrf}"><button type="submit">${t("Sign out", "Oturumu kapat")}</button>
        </form>
      </header>`
    : html`<header><strong>payspec sandbox</strong>${languageLink(path)}</header>`;
  return boxedTables(
    html`<!doctype html>
<html lang="${activeLocale()}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · payspec sandbox</title><link rel="stylesheet" href="${DASHBOARD}/assets/dashboard.css">
<link rel="icon" href="${DASHBOARD}/assets/favicon.svg" type="image/svg+xml">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false}'>
<script src="${DASHBOARD}/assets/dashboard.js" defer></script>
<script src="${DASHBOARD}/assets/htmx.min.js" defer></script></head>
<body><a class="skip" href="#main">${t("Skip to the content", "İçeriğe geç")}</a>${nav}<main id="main" tabindex="-1"><h1>${title}</h1>${content}</main></body></html>`
      .text,
  );
}

/** A status as a coloured badge (the colour repeats the word: never the only sign). */
export function statusBadge(status: string, id?: string): SafeHtml {
  const kind = status.replace(/[^a-z_]/g, "");
  return html`<span class="badge badge-${kind} tone-${stateTone(status)}" ${id ? html`id="${id}"` : ""}>${statusWord(status)}</span>`;
}
