// Summarises a V8 .cpuprofile (node --cpu-prof): the top functions by self time, and the top functions by
// inclusive time (self + everything they called), each as a share of all samples.
// Usage: node scripts/cpuprofile-summary.mjs file.cpuprofile [top=25]
import fs from 'node:fs';

const [file, topArg] = process.argv.slice(2);
const top = Number(topArg || 25);
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const hits = new Map();
for (const s of prof.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
const total = prof.samples.length;
const name = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${f.url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};
const self = new Map();
const incl = new Map();
for (const [id, count] of hits) {
  const n = byId.get(id);
  self.set(name(n), (self.get(name(n)) ?? 0) + count);
  // inclusive: each distinct function on the stack once
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + count);
  }
}
const pct = (v) => ((100 * v) / total).toFixed(1).padStart(5) + ' %';
const idle = (self.get('(idle)') ?? 0) + (self.get('(program)') ?? 0);
console.log(`${file}: ${total} samples; (idle) + (program) ${pct(idle)}, (garbage collector) ${pct(self.get('(garbage collector)') ?? 0)}`);
console.log(`\nTop ${top} by self time`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(v)}  ${k}`);
console.log(`\nTop ${top} by inclusive time (excluding the root, idle and program)`);
for (const [k, v] of [...incl]
  .filter(([k]) => !/^\((root|idle|program)\)/.test(k))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top))
  console.log(`${pct(v)}  ${k}`);
