import zlib from 'node:zlib';

/**
 * The text of a PDF the server made (pdfkit, embedded fonts): the streams inflated, each font's ToUnicode
 * map read, and the glyph codes of every Tj / TJ turned back into characters. One line per text operation.
 */
export function pdfText(pdf: Buffer): string {
  const s = pdf.toString('latin1');
  const objects = new Map<string, { dict: string; data: string | null }>();
  for (const m of s.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2];
    const at = body.indexOf('stream\n');
    if (at < 0) {
      objects.set(m[1], { dict: body, data: null });
      continue;
    }
    const dict = body.slice(0, at);
    let raw = Buffer.from(body.slice(at + 7, body.lastIndexOf('\nendstream')), 'latin1');
    if (dict.includes('/FlateDecode')) raw = zlib.inflateSync(raw);
    objects.set(m[1], { dict, data: raw.toString('latin1') });
  }
  const cmaps = new Map<string, Map<number, string>>();
  const fontCmap = new Map<string, Map<number, string>>();
  for (const [, o] of objects) {
    for (const f of o.dict.matchAll(/\/(F\d+) (\d+) 0 R/g)) {
      const font = objects.get(f[2]);
      const ref = font && /\/ToUnicode (\d+) 0 R/.exec(font.dict);
      if (!ref) continue;
      if (!cmaps.has(ref[1])) cmaps.set(ref[1], parseCmap(objects.get(ref[1])?.data ?? ''));
      fontCmap.set(f[1], cmaps.get(ref[1])!);
    }
  }
  const lines: string[] = [];
  for (const [, o] of objects) {
    if (!o.data || !/\b(Tj|TJ)\b/.test(o.data) || o.dict.includes('/ToUnicode')) continue;
    let cmap: Map<number, string> | undefined;
    for (const op of o.data.matchAll(/\/(F\d+)\s+[\d.]+\s+Tf|\[([^\]]*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (op[1]) cmap = fontCmap.get(op[1]);
      else {
        const hexes = op[2] !== undefined ? [...op[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]) : [op[3]];
        lines.push(hexes.map((h) => decode(h, cmap)).join(''));
      }
    }
  }
  return lines.join('\n');
}

function decode(hex: string, cmap: Map<number, string> | undefined): string {
  let out = '';
  for (let i = 0; i + 4 <= hex.length; i += 4) out += cmap?.get(parseInt(hex.slice(i, i + 4), 16)) ?? '';
  return out;
}

const utf16 = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));

function parseCmap(text: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const r of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const lo = parseInt(r[1], 16);
      const hi = parseInt(r[2], 16);
      // Entries may hold several code units separated by spaces (a ligature: <0066 0069> is "fi").
      if (r[3].startsWith('[')) [...r[3].matchAll(/<([0-9a-fA-F ]+)>/g)].forEach((d, i) => map.set(lo + i, utf16(d[1].replace(/ /g, ''))));
      else for (let c = lo, base = parseInt(r[3].slice(1, -1), 16); c <= hi; c++) map.set(c, String.fromCharCode(base + c - lo));
    }
  }
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const r of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F ]+)>/g)) map.set(parseInt(r[1], 16), utf16(r[2].replace(/ /g, '')));
  }
  return map;
}
