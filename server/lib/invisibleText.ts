/**
 * Invisible characters that can disguise a text (issue 31): a company named `Acme\u202Eiveseb` shows as
 * "Acmebesevi" in a list, an export or a PDF, and zero-width characters make two names that look the same
 * differ (or one that looks different match). The set:
 * - zero-width: U+200B space, U+200C non-joiner, U+200D joiner, U+2060 word joiner, U+2061–U+2064 invisible
 *   operators, U+FEFF zero-width no-break space (a byte-order mark inside a text);
 * - direction: U+200E/U+200F and U+061C marks, U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates.
 * One exception: U+200D between two pictographs (👨‍👩‍👧, ❤️‍🔥) joins them into one emoji and hides nothing.
 *
 * The portal's text is Italian, English and French; the scripts that need these characters (Arabic, Hebrew,
 * Persian, the Indic scripts) are not among its languages, so refusing them costs its users nothing.
 */
const SET = '\\u061C\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF';
const ANY = new RegExp(`[${SET}]`, 'u');
/** An emoji's joiner (kept, group 1) or any other character of the set (dropped). */
const EACH = new RegExp(`((?<=[\\p{Extended_Pictographic}\\p{Emoji_Modifier}\\uFE0F])\\u200D(?=\\p{Extended_Pictographic}))|[${SET}]`, 'gu');

/**
 * Cheap first look: whether the text holds any character of the set (an emoji's joiner too). Every character
 * of the set is at U+061C or above, so a text whose every unit is below it (the portal's usual Latin text) is
 * answered without the regex (issue 37: every string of every request body passes here).
 */
export function mayHaveInvisible(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x061c) return ANY.test(s);
  return false;
}

/** The first look by the regex alone (for the test that compares the two). */
export const mayHaveInvisibleByPattern = (s: string) => ANY.test(s);

/** The text without the set's characters (an emoji's joiner kept). */
export const stripInvisible = (s: string) => (ANY.test(s) ? s.replace(EACH, (_m, joiner: string | undefined) => joiner ?? '') : s);

/** Whether the text holds a character of the set that is not an emoji's joiner. */
export const hasInvisible = (s: string) => stripInvisible(s) !== s;

/** The set as people read it in a message. */
export const INVISIBLE_RANGES = 'U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+2066–U+2069, U+061C, U+FEFF';
