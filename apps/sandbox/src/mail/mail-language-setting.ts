import { DEFAULT_LOCALE, type Locale } from "../infrastructure/i18n/locale.js";
import type { SettingDefinition } from "../workspaces/index.js";

/**
 * The language the workspace's e-mails (and the reports they carry) are written in. E-mails are
 * written in the background, where no browser says which language it reads, so the workspace says it.
 */
export const MAIL_LANGUAGE: SettingDefinition<Locale> = { name: "mail_language", fallback: DEFAULT_LOCALE };
