import { Type } from 'typebox';
import type { App } from '../../lib/typed.js';
import accessRequestDecl from '../../../model/resources/access-requests.js';
import { fieldSchema, type FieldsDecl } from '../../../model/fields.js';
import type { InputOf } from '../../../model/resource.js';
import { int, obj, writeAnswer } from '../../lib/answers.js';
import { ApiError, invalid, tooMany } from '../../lib/errors.js';
import { IMAGE_TYPES, filePart } from '../../../model/fileParts.js';
import { imageProblem } from '../../lib/images.js';
import { hashPassword, passwordProblem } from '../../lib/passwords.js';
import { isUploadedFile } from '../../plugins/forms.js';
import { ACCESS_STATUS_MEANINGS, accessRequestsRepo } from '../../repositories/accessRequests.js';
import { accountsRepo } from '../../repositories/accounts.js';
import { diff } from '../../repositories/auditLog.js';
import { throttleRepo } from '../../repositories/throttle.js';

/** Not in the documents: access requests one address may send per hour before a 429. */
const REQUESTS_PER_HOUR_PER_ADDRESS = 5;
const HOUR = 3_600_000;
/** The carrier's logo (hidden in the review table) follows the create-company limit: 5 MB (server.md §8). */
const LOGO_LIMIT = 5 * 1024 * 1024;

/**
 * The form's body, from its declaration (model/resources/access-requests.ts): every field required but the
 * invitation's carrier and the logo (accounts document §5); the passwords are checked below with the
 * password rule's own message, so the schema only bounds their length.
 */
type FormBody = InputOf<typeof accessRequestDecl.fields>;
/** The form's text fields (trimmed, required): every declared text or email field. */
type TextField = Exclude<{ [K in keyof FormBody]-?: FormBody[K] extends string ? K : never }[keyof FormBody], 'user_password' | 'user_password_confirmation'>;
const FORM_FIELDS = Object.entries(accessRequestDecl.fields as FieldsDecl).filter(([, f]) => !f.readOnly);
const TEXT_FIELDS = FORM_FIELDS.filter(([, f]) => f.type === 'text' || f.type === 'email').map(([n]) => n as TextField);
/** The text fields that must be filled (the website is optional: stored empty when not given). */
const REQUIRED_TEXT = new Set<string>(FORM_FIELDS.filter(([, f]) => f.required).map(([n]) => n));
const formBody = Type.Unsafe<FormBody>({
  type: 'object',
  additionalProperties: false,
  required: FORM_FIELDS.filter(([, f]) => f.required).map(([n]) => n),
  properties: Object.fromEntries(
    FORM_FIELDS.map(([n, f]) => [
      n,
      f.type === 'password'
        ? { type: 'string', maxLength: 1024 }
        : f.type === 'image'
          ? filePart({ what: "The carrier's logo: a PNG, JPEG or WebP picture", types: IMAGE_TYPES, maxBytes: LOGO_LIMIT })
          : fieldSchema(f, { withDefault: false }),
    ]),
  ),
});

/** A web address as people type it: with or without http(s)://, a dotted host, no spaces. */
const WEBSITE = /^(https?:\/\/)?[^\s/.]+(\.[^\s/.]+)+(\/\S*)?$/i;

/** The public access-request form (accounts document §3, server.md §4). */
export default async function accessRequestRoutes(app: App) {
  const requests = accessRequestsRepo(app.db);
  const accounts = accountsRepo(app.db);
  const throttle = throttleRepo(app.db);

  app.post(
    '/visitor/request_access/store',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['visitor'],
        summary: 'Sends a request for a carrier account.',
        response: { 200: writeAnswer(obj({ id: int, status: { type: 'string', enum: ['OP'], description: ACCESS_STATUS_MEANINGS.OP } })) },
        consumes: ['multipart/form-data', 'application/json'],
        body: formBody,
      },
    },
    async (req) => {
      const body = req.body;
      const values: Record<string, string> = {};
      const problems: Record<string, string | { key: string; params?: Record<string, unknown> }> = {};
      for (const f of TEXT_FIELDS) {
        values[f] = (body[f] ?? '').trim();
        if (!values[f] && REQUIRED_TEXT.has(f)) problems[f] = 'validation.required';
      }
      values.user_email = values.user_email.toLowerCase();
      if (values.carrier_website_url && !WEBSITE.test(values.carrier_website_url)) {
        problems.carrier_website_url = { key: 'validation.format', params: { format: req.t('format.uri') } };
      }
      const password = body.user_password;
      if (!password) problems.user_password = 'validation.required';
      else if (passwordProblem(password)) problems.user_password = passwordProblem(password)!;
      if (password !== body.user_password_confirmation) problems.user_password_confirmation = 'accessRequests.passwordMismatch';
      if (!(await accounts.countryExists(body.carrier_country_id))) problems.carrier_country_id = 'validation.exists';
      if (!(await accounts.languageExists(body.carrier_language_id))) problems.carrier_language_id = 'validation.exists';
      const carrierId = body.carrier_id ?? null;
      if (carrierId !== null && !(await requests.invitingCarrier(carrierId))) problems.carrier_id = 'validation.exists';
      const logo = isUploadedFile(body.carrier_logo) ? body.carrier_logo : undefined;
      if (logo && logo.data.length > LOGO_LIMIT) throw new ApiError(413, 'errors.tooLarge', { limit: '5 MB' });
      // Its kind and its declared pixel size, from the header (lib/images.ts): nothing is decoded.
      const checked = logo ? imageProblem(logo.data, 'accounts.imageKind') : null;
      const logoKind = checked && 'ext' in checked ? checked : null;
      if (checked && 'problem' in checked) problems.carrier_logo = checked.problem;
      if (Object.keys(problems).length) throw invalid(problems);

      // Counted only for well-formed requests, so a typo does not use up the hour.
      if (!(await throttle.take(`access-request:ip:${req.ip}`, HOUR, REQUESTS_PER_HOUR_PER_ADDRESS))) throw tooMany(HOUR);
      // Whether the user email already has an account is not said here (that would tell strangers
      // which emails are registered): the reviewer gets a 409 when confirming.
      const created = await requests.create({
        ...(values as Record<(typeof TEXT_FIELDS)[number], string>),
        // optional: stored empty when not given (the column is NOT NULL)
        carrier_website_url: values.carrier_website_url ?? '',
        carrier_country_id: body.carrier_country_id,
        carrier_language_id: body.carrier_language_id,
        carrier_id: carrierId,
        carrier_logo: logo && logoKind ? await app.files.store('media', logo.data, logoKind.ext) : null,
        user_password_hash: await hashPassword(password),
      });
      const recorded = { ...values, carrier_country_id: body.carrier_country_id, carrier_language_id: body.carrier_language_id, carrier_id: carrierId };
      req.audit({ action: 'create', resource: 'access_requests', resource_id: created.id, company_id: carrierId, changes: diff(null, recorded) });
      return { status: true, message: req.t('accessRequests.stored'), data: { id: created.id, status: 'OP' } };
    },
  );
}
