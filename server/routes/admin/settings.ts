import type { App } from '../../lib/typed.js';
import { dataAnswer, int, intN, obj, str, writeAnswer } from '../../lib/answers.js';
import { kindsFor } from '../../../model/permissions.js';
import { COMPANY_ROLE } from '../../../model/roles.js';
import { invalid } from '../../lib/errors.js';
import { MIME, MULTIPART_FILE_MAX, filePart } from '../../../model/fileParts.js';
import { spreadsheetKind } from '../../lib/spreadsheet.js';
import { isUploadedFile, type UploadedFile } from '../../plugins/forms.js';
import { invalidatePricingData } from '../../repositories/pricingData.js';
import { parseTemplate, settingsRepo, TEMPLATE_KEYS, templateSetting, VISITOR_COMPANY, type TemplateKey } from '../../repositories/settings.js';
import { templatePath } from '../visitor/settings.js';

/** The admin's portal settings (server.md §9): the visitor carrier and the template files. */
export default async function adminSettingsRoutes(app: App) {
  const settings = settingsRepo(app.db);
  const template = { anyOf: [obj({ name: str, url: str }), { type: 'null' }] };
  const settingsView = obj({
    visitor_company_id: intN,
    visitor_company: { anyOf: [obj({ id: int, legal_name: str }), { type: 'null' }] },
    // Every template key, always present (null: none uploaded): a closed object rather than a map.
    templates: obj(Object.fromEntries(TEMPLATE_KEYS.map((k) => [k, template]))),
  });

  async function view() {
    const values = await settings.all();
    const id = Number(values[VISITOR_COMPANY]);
    const company =
      Number.isInteger(id) && id > 0 ? await app.db.selectFrom('companies').select(['id', 'legal_name']).where('id', '=', id).executeTakeFirst() : undefined;
    const templates: Record<string, { name: string; url: string } | null> = {};
    for (const key of TEMPLATE_KEYS) {
      const t = parseTemplate(values[templateSetting(key)]);
      templates[key] = t ? { name: t.name, url: templatePath(key) } : null;
    }
    return { visitor_company_id: company?.id ?? null, visitor_company: company ?? null, templates };
  }

  app.get(
    '/admin/settings',
    {
      config: { policy: kindsFor('portal-settings', 'list') },
      schema: { tags: ['admin'], summary: 'The portal settings: the visitor carrier and the templates.', response: { 200: dataAnswer(settingsView) } },
    },
    async () => ({ status: true, data: await view() }),
  );

  const fileFields = Object.fromEntries(
    TEMPLATE_KEYS.map((k) => [k, filePart({ what: 'The template: an .xls or .xlsx file', types: [MIME.xlsx, MIME.xls], maxBytes: MULTIPART_FILE_MAX })]),
  );
  app.post(
    '/admin/settings/update',
    {
      config: { policy: kindsFor('portal-settings', 'edit') },
      schema: {
        tags: ['admin'],
        summary: 'Sets the visitor carrier and uploads or removes templates.',
        consumes: ['multipart/form-data', 'application/json'],
        response: { 200: writeAnswer(settingsView) },
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            visitor_company_id: { type: ['integer', 'null'], minimum: 1 },
            remove_templates: { type: 'array', items: { type: 'string', enum: [...TEMPLATE_KEYS] } },
            ...fileFields,
          },
        },
      },
    },
    async (req) => {
      const body: Record<string, unknown> & { visitor_company_id?: number | null; remove_templates?: TemplateKey[] } = req.body ?? {};
      const errors: Record<string, string> = {};
      if (body.visitor_company_id) {
        const c = await app.db.selectFrom('companies').select(['company_role_id', 'status_id']).where('id', '=', body.visitor_company_id).executeTakeFirst();
        if (!c || c.status_id !== 1 || ![COMPANY_ROLE.CARRIER, COMPANY_ROLE.RESELLER].includes(c.company_role_id as 2 | 4)) {
          errors.visitor_company_id = 'settings.visitorCompanyInvalid';
        }
      }
      const uploads: Array<[TemplateKey, UploadedFile, string]> = [];
      for (const key of TEMPLATE_KEYS) {
        const f = body[key];
        if (f === undefined || f === null || f === '') continue;
        const kind = isUploadedFile(f) ? spreadsheetKind(f.data) : null;
        if (!kind) errors[key] = 'settings.templateType';
        else if (isUploadedFile(f)) uploads.push([key, f, kind.ext]);
      }
      if (Object.keys(errors).length) throw invalid(errors);

      const changes: Record<string, { before: unknown; after: unknown }> = {};
      if ('visitor_company_id' in body) {
        const before = await settings.get(VISITOR_COMPANY);
        const after = body.visitor_company_id ? String(body.visitor_company_id) : null;
        if ((before ?? null) !== after) changes[VISITOR_COMPANY] = { before: before ?? null, after };
        await settings.set(VISITOR_COMPANY, body.visitor_company_id ? String(body.visitor_company_id) : null, true);
        invalidatePricingData(app.db);
      }
      const replaced: string[] = [];
      for (const key of body.remove_templates ?? []) {
        const old = parseTemplate(await settings.get(templateSetting(key)));
        if (old) replaced.push(old.file);
        if (old) changes[templateSetting(key)] = { before: old.name ?? old.file, after: null };
        await settings.set(templateSetting(key), null, true);
      }
      for (const [key, file, ext] of uploads) {
        const old = parseTemplate(await settings.get(templateSetting(key)));
        const stored = await app.files.store('templates', file.data, ext);
        await settings.set(templateSetting(key), JSON.stringify({ file: stored, name: file.filename.slice(0, 200) }), true);
        changes[templateSetting(key)] = { before: old?.name ?? old?.file ?? null, after: file.filename.slice(0, 200) };
        if (old) replaced.push(old.file);
      }
      // the old files go only once the settings no longer name them
      for (const f of replaced) await app.files.remove('templates', f);
      req.audit({ action: 'update', resource: 'settings', changes });
      return { status: true, message: req.t('settings.saved'), data: await view() };
    },
  );
}
