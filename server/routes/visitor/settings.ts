import type { App } from '../../lib/typed.js';
import { binaryAnswer, obj, XLSX } from '../../lib/answers.js';
import { ApiError } from '../../lib/errors.js';
import { spreadsheetKind } from '../../lib/spreadsheet.js';
import { attachment } from '../../lib/downloadNames.js';
import { parseTemplate, settingsRepo, TEMPLATE_KEYS, templateSetting, type TemplateKey } from '../../repositories/settings.js';

/** Where a template is downloaded (relative to the API base; fetched with the API header like any call). */
export const templatePath = (key: TemplateKey) => `/visitor/templates/${key}`;

/**
 * The public settings as the `settings` lookup answers them (server.md §9): `visitor_company_id` as a
 * number (or null) and, under each template link key of the calculator document §3, the download path of
 * the template the admin uploaded (null when none: the tariff screens then offer their built-in template);
 * the stored template records themselves stay inside. Exactly these keys (issue 33: a closed answer): the
 * portal writes no other public setting (seed/catalogue.ts SETTINGS, admin/settings.ts), so a row added by
 * hand is not published.
 */
export function publicSettings(values: Record<string, string | null>) {
  const id = Number(values.visitor_company_id);
  const out: Record<string, string | number | null> = { visitor_company_id: Number.isInteger(id) && id > 0 ? id : null };
  // an uploaded template wins over whatever link the setting of that key holds
  for (const key of TEMPLATE_KEYS) out[key] = parseTemplate(values[templateSetting(key)]) ? templatePath(key) : (values[key] ?? null);
  return out;
}

/** The answer schema of `publicSettings`. */
export const publicSettingsAnswer = obj({
  visitor_company_id: { type: ['integer', 'null'], description: 'The carrier that prices visitor quotes (pricing.md §1), or null when none is set' },
  ...Object.fromEntries(
    TEMPLATE_KEYS.map((k) => [
      k,
      { type: ['string', 'null'], description: `The download path of the ${k} template (GET ${templatePath(k)}), or null: the built-in template` },
    ]),
  ),
});

/** GET /visitor/templates/:key (the `settings` lookup itself is in lookups.ts and answers publicSettings). */
export default async function settingsRoutes(app: App) {
  const settings = settingsRepo(app.db);

  // Templates hold column headers and example rows only, so anyone may download them.
  app.get(
    '/visitor/templates/:key',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['visitor'],
        summary: 'Downloads a spreadsheet template the admin uploaded.',
        response: { 200: binaryAnswer('The template', XLSX, 'application/vnd.ms-excel', 'application/octet-stream') },
        params: { type: 'object', required: ['key'], properties: { key: { type: 'string', enum: [...TEMPLATE_KEYS] } } },
      },
    },
    async (req, reply) => {
      const { key } = req.params;
      const t = parseTemplate(await settings.get(templateSetting(key)));
      if (!t || !/^[a-f0-9]{32}\.xlsx?$/.test(t.file)) throw new ApiError(404, 'settings.templateMissing');
      // Read whole (a template is small): its first bytes name its type.
      const data = await app.files.read('templates', t.file);
      if (!data) throw new ApiError(404, 'settings.templateMissing');
      const kind = spreadsheetKind(data);
      return (
        reply
          .header('content-type', kind?.mime ?? 'application/octet-stream')
          // The name the admin uploaded the template with (lib/downloadNames.ts: an uploaded file keeps its name).
          .header('content-disposition', attachment(t.name))
          .header('x-content-type-options', 'nosniff')
          .send(data)
      );
    },
  );
}
