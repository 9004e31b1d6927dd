import { core } from './core.js';
import { reference } from './reference.js';
import { accounts } from './accounts.js';
import { chat } from './chat.js';
import { tariffs } from './tariffs.js';
import { companies } from './companies.js';
import { pricing } from './pricing.js';
import { settings } from './settings.js';
import { requests } from './requests.js';
import { security } from './security.js';
import { sessions } from './sessions.js';
import { mfa } from './mfa.js';
import { documents } from './documents.js';
import { exportsArea } from './exports.js';
import { notifications } from './notifications.js';
import { enduserRequests } from './enduserRequests.js';
import { downloads } from './downloads.js';
import { proofOfDelivery } from './proofOfDelivery.js';
import { labels } from './labels.js';
import { RESOURCES } from '../../model/registry.js';
import { serverMessages } from '../../model/resource.js';

export type Lang = 'it' | 'en' | 'fr';
export const LANGS: Lang[] = ['it', 'en', 'fr'];
type Dict = Record<string, string>;

/** Every area's messages; an area file exports `{en, it, fr}` and is listed here once. */
const areas: Array<Record<Lang, Dict>> = [core];
areas.push(reference);
areas.push(accounts);
areas.push(chat);
areas.push(tariffs);
areas.push(companies);
areas.push(pricing);
areas.push(settings);
areas.push(requests);
areas.push(security);
areas.push(sessions);
areas.push(mfa);
areas.push(documents);
areas.push(exportsArea);
areas.push(notifications);
areas.push(enduserRequests);
areas.push(downloads);
areas.push(proofOfDelivery);
areas.push(labels);
// Each declared resource's answers and field names (model/resources/*).
for (const decl of RESOURCES) areas.push(serverMessages(decl));

const dictionaries: Record<Lang, Dict> = { it: {}, en: {}, fr: {} };
for (const area of areas) for (const l of LANGS) Object.assign(dictionaries[l], area[l]);

/** Registers an area's messages (used by modules that keep their texts beside their code). */
export function registerMessages(area: Record<Lang, Dict>) {
  for (const l of LANGS) Object.assign(dictionaries[l], area[l]);
}

/** First of it, en, fr named in an Accept-Language header; Italian by default. */
export function pickLang(header: string | undefined): Lang {
  if (!header) return 'it';
  for (const part of header.split(',')) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if ((LANGS as string[]).includes(code)) return code as Lang;
  }
  return 'it';
}

export function translate(lang: Lang, key: string, params?: Record<string, unknown>): string {
  const text = dictionaries[lang][key] ?? dictionaries.en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (params[name] === undefined ? m : String(params[name])));
}

export function hasMessage(key: string): boolean {
  return key in dictionaries.en;
}
