import { randomUUID } from "node:crypto";
import escapeHtml from "escape-html";
import { activeLocale } from "../infrastructure/i18n/locale.js";
import type { MailAttachment, OutboxMessage } from "./outbox-store.js";

export interface Letter {
  readonly to: readonly string[];
  readonly subject: string;
  /** Plain text; blank lines separate paragraphs, and http(s) URLs become links in the HTML part. */
  readonly text: string;
  readonly attachments?: readonly MailAttachment[];
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"]+/g;

/** The HTML part of a letter, in the language it is written in: its paragraphs, escaped, with its URLs as links. */
export function letterHtml(text: string): string {
  const paragraphs = text.split(/\n{2,}/).map((paragraph) => {
    let out = "";
    let at = 0;
    for (const match of paragraph.matchAll(URL_IN_TEXT)) {
      out += escapeHtml(paragraph.slice(at, match.index));
      out += `<a href="${escapeHtml(match[0])}">${escapeHtml(match[0])}</a>`;
      at = (match.index ?? 0) + match[0].length;
    }
    out += escapeHtml(paragraph.slice(at));
    return `<p>${out.replace(/\n/g, "<br>")}</p>`;
  });
  return `<!doctype html><html lang="${activeLocale()}"><head><meta charset="utf-8"></head><body>${paragraphs.join("")}</body></html>`;
}

/** The links of a letter's text, in order. */
export function letterLinks(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((match) => match[0]);
}

/**
 * An outbox message for a letter: caught only, or queued for the SMTP server when there is one.
 * Its id is also its Message-ID, so a message delivered twice (an instance died between sending and
 * recording it) is recognisable as one.
 */
export function composeMessage(workspaceTag: string, letter: Letter, now: number, smtp: boolean): OutboxMessage {
  return {
    id: `msg_${randomUUID().replaceAll("-", "")}`,
    workspaceTag,
    createdAt: now,
    to: letter.to,
    subject: letter.subject,
    text: letter.text,
    html: letterHtml(letter.text),
    attachments: letter.attachments ?? [],
    delivery: smtp ? { state: "queued", attempts: 0, nextAttemptAt: now } : { state: "caught" },
  };
}
