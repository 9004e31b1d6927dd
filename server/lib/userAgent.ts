/**
 * A short readable name for a User-Agent, e.g. "Chrome 126 · Linux" (the sessions list, server.md §3).
 * Only the common browsers and systems are named; anything else answers null (the screens say "unknown").
 * The order matters: Edge, Opera and Samsung Internet also say "Chrome", Chrome also says "Safari".
 */
const BROWSERS: Array<[name: string, pattern: RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS|HeadlessChrome)\/(\d+)/],
  ['Chromium', /\bChromium\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
];

const SYSTEMS: Array<[name: string, pattern: RegExp]> = [
  ['Android', /\bAndroid\b/],
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

export function browserName(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  let browser: string | null = null;
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(userAgent);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  const system = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? null;
  if (browser && system) return `${browser} · ${system}`;
  return browser ?? system;
}
