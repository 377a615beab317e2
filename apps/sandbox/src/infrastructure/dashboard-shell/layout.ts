import { html, type SafeHtml } from "./html.js";

/** The dashboard's mount point: everything lives under it, and its cookies are scoped to it. */
export const DASHBOARD = "/_sandbox/dashboard";

/** The dashboard's stylesheet, served as a file: the CSP allows no inline style. */
export const STYLESHEET = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f6f7f9; }
header { background: #16324f; color: #fff; padding: .6rem 1.2rem; display: flex; gap: 1.2rem; align-items: center; }
header a { color: #fff; } header form { margin-left: auto; }
main { padding: 1.2rem; max-width: 72rem; }
table { border-collapse: collapse; background: #fff; width: 100%; margin: .6rem 0 1.2rem; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
td.money, th.money { text-align: right; font-variant-numeric: tabular-nums; }
form.filters { display: flex; gap: .8rem; align-items: end; flex-wrap: wrap; }
label { display: flex; flex-direction: column; font-size: .85rem; gap: .15rem; }
.error { color: #a4161a; } .status { font-weight: 600; }
textarea { font: 13px/1.4 ui-monospace, monospace; width: 100%; }
button, input, select { font: inherit; padding: .3rem .5rem; }
a:focus, button:focus, input:focus, select:focus { outline: 3px solid #f5a623; outline-offset: 1px; }
nav a { margin-right: .8rem; } form.inline { display: inline-flex; gap: .5rem; align-items: end; margin: 0 .8rem .6rem 0; }
form.stacked { display: grid; gap: .7rem; max-width: 32rem; } .field-error { color: #a4161a; font-size: .85rem; }
[aria-invalid="true"] { border: 2px solid #a4161a; } .notice { background: #e6f4ea; padding: .4rem .7rem; }
pre { background: #fff; padding: .6rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
section { margin-bottom: 1.4rem; }
`;

/** A workspace's pages, in navigation order. */
const WORKSPACE_NAVIGATION = [
  ["", "Accounts and payments"],
  ["/payments/new", "New payment"],
  ["/requests", "Request log"],
  ["/faults", "Faults"],
  ["/reconciliation", "Reconciliation"],
  ["/exports", "Exports"],
  ["/outbox", "Outbox"],
  ["/settings/api-keys", "API keys"],
  ["/settings/reports", "Reports"],
  ["/settings/schedules", "Schedules"],
] as const;
/** The gateway's pages. */
const GATEWAY_NAVIGATION = [["/gateway", "Gateway"]] as const;

/** Who is signed in: a workspace (by its tag) or the gateway. */
export type SignedIn = ({ readonly workspace: string } | { readonly gateway: true }) & { readonly csrf: string };

/**
 * One page: a header with the workspace, navigation and sign out; the content. Pages work without
 * script; htmx (served by the sandbox, nothing from a CDN) only refreshes the live request log.
 */
export function page(title: string, content: SafeHtml, session?: SignedIn): string {
  const navigation = session && "workspace" in session ? WORKSPACE_NAVIGATION : GATEWAY_NAVIGATION;
  const nav = session
    ? html`<header>
        <strong>payspec sandbox</strong>
        <nav aria-label="Dashboard">${navigation.map(([path, label]) => html`<a href="${DASHBOARD}${path}">${label}</a>`)}</nav>
        <span>${"workspace" in session ? `Workspace ${session.workspace}` : "Card gateway"}</span>
        <form method="post" action="${DASHBOARD}/sign-out">
          <input type="hidden" name="_csrf" value="${session.csrf}"><button type="submit">Sign out</button>
        </form>
      </header>`
    : html`<header><strong>payspec sandbox</strong></header>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · payspec sandbox</title><link rel="stylesheet" href="${DASHBOARD}/assets/dashboard.css">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false}'>
<script src="${DASHBOARD}/assets/htmx.min.js" defer></script></head>
<body>${nav}<main><h1>${title}</h1>${content}</main></body></html>`.text;
}
