import { buildI18nProvider, type AreaMessages, type PortalI18n } from './i18n';
import { componentMessages } from './components/messages';
import { storedLocale } from './shellState';

/**
 * The visitor's shell's translations (issue 18). At start they hold react-admin's messages of the
 * chosen language, the shell's (sign-in included) and the shared components'; each public page brings
 * its own area's messages with its code (`withMessages`), so the login's first load carries no
 * calculator, request or account texts.
 */
let i18n: PortalI18n | null = null;

/** Built at the public shell's first render (src/main.tsx has loaded the stored language's catalogue by then). */
export function publicI18n(): PortalI18n {
  return (i18n ??= buildI18nProvider([componentMessages], storedLocale()));
}

/** A page's module and its messages, fetched together; the messages are in place before the page renders. */
export async function withMessages<M>(page: Promise<M>, ...areas: Array<Promise<AreaMessages>>): Promise<M> {
  const [module, ...loaded] = await Promise.all([page, ...areas]);
  for (const area of loaded) await publicI18n().addMessages(area);
  return module;
}
