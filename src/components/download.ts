/**
 * Saves a Blob the API served (the data provider's `download`) under `filename`: a request's document, a template.
 * A File the data provider named after the answer's Content-Disposition (`namedFile`: the server's name in the
 * user's language, e.g. `preventivo-P-2026-000123.pdf`, lib/downloadNames.ts) keeps that name; `filename`, the
 * same name built by the screen, is the fallback.
 */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = typeof File !== 'undefined' && blob instanceof File && blob.name ? blob.name : filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
