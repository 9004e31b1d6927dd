import type { App } from '../../lib/typed.js';
import { errorRef, okAnswer, writeAnswer } from '../../lib/answers.js';
import { profileSchema } from './auth.js';
import { ApiError, invalid } from '../../lib/errors.js';
import { imageProblem, type ImageProblem } from '../../lib/images.js';
import { isUploadedFile } from '../../plugins/forms.js';
import { accountsRepo } from '../../repositories/accounts.js';
import { diff } from '../../repositories/auditLog.js';
import { usersRepo } from '../../repositories/users.js';
import { IMAGE_TYPES, filePart } from '../../../model/fileParts.js';

/** Profile pictures: at most 1 MB (accounts document §5, server.md §8). */
export const PROFILE_IMAGE_LIMIT = 1024 * 1024;

const text = (max: number, min = 0) => ({ type: 'string', minLength: min, maxLength: max }) as const;

/** The account settings' profile part, and the (read-only) email (accounts document §2 "Account settings"). */
export default async function profileRoutes(app: App) {
  const accounts = accountsRepo(app.db);
  const users = usersRepo(app.db);

  app.post(
    '/visitor/updateProfile',
    {
      config: { policy: 'signedIn' },
      // Files over the upload limit of every form (5 MB) stop in the multipart parser: say this form's limit.
      errorHandler: (err, _req, _reply) => {
        const e = err as { code?: string; statusCode?: number };
        if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) throw new ApiError(413, 'errors.tooLarge', { limit: '1 MB' });
        throw err;
      },
      schema: {
        tags: ['visitor'],
        summary: "Updates the caller's profile (name, country, city, picture).",
        response: { 200: { ...writeAnswer(profileSchema), properties: { ...(writeAnswer(profileSchema).properties as object), user: profileSchema } } },
        consumes: ['multipart/form-data', 'application/json'],
        body: {
          type: 'object',
          required: ['first_name', 'last_name'],
          additionalProperties: false,
          properties: {
            first_name: text(100, 1),
            last_name: text(100, 1),
            country_id: { type: ['integer', 'null'], minimum: 1 },
            city: { type: ['string', 'null'], maxLength: 100 },
            image: filePart({
              what: 'The profile picture: a PNG, JPEG or WebP picture',
              types: IMAGE_TYPES,
              maxBytes: PROFILE_IMAGE_LIMIT,
              orStoredName: true,
            }),
          },
        },
      },
    },
    async (req) => {
      const body = req.body;
      const first_name = body.first_name.trim();
      const last_name = body.last_name.trim();
      const problems: Record<string, ImageProblem> = {};
      if (!first_name) problems.first_name = 'validation.required';
      if (!last_name) problems.last_name = 'validation.required';
      if (body.country_id != null && !(await accounts.countryExists(body.country_id))) problems.country_id = 'validation.exists';
      // Only a file changes the picture; anything else in `image` (the current URL sent back) keeps it.
      const file = isUploadedFile(body.image) ? body.image : undefined;
      if (file && file.data.length > PROFILE_IMAGE_LIMIT) throw new ApiError(413, 'errors.tooLarge', { limit: '1 MB' });
      // Its kind and its declared pixel size, from the header (lib/images.ts): nothing is decoded.
      const checked = file ? imageProblem(file.data, 'accounts.imageKind') : null;
      const kind = checked && 'ext' in checked ? checked : null;
      if (checked && 'problem' in checked) problems.image = checked.problem;
      if (Object.keys(problems).length) throw invalid(problems);

      const me = req.user!;
      const before = await accounts.findById(me.id);
      const image = file && kind ? await app.files.store('media', file.data, kind.ext) : undefined;
      const fields: Parameters<typeof accounts.updateProfile>[1] = { first_name, last_name };
      if (body.country_id !== undefined) fields.country_id = body.country_id;
      if (body.city !== undefined) fields.city = body.city?.trim() || null;
      if (image) fields.image = image;
      await accounts.updateProfile(me.id, fields);
      if (image) await app.files.remove('media', before?.image);
      req.audit({
        action: 'update',
        resource: 'users',
        resource_id: me.id,
        company_id: me.company_id,
        changes: diff(before as Record<string, unknown> | undefined, fields),
      });
      const user = await users.profile(me.id);
      return { status: true, message: req.t('accounts.profileUpdated'), data: user, user };
    },
  );

  /**
   * Decision (the documents show the settings' email field disabled and read-only, and list this call
   * without a body): the email is the sign-in name, managed by whoever manages the user (admins, or
   * the carrier for its users, in user management), so a person cannot change their own here. The
   * call answers 403 with that explanation and changes nothing.
   */
  app.post(
    '/visitor/changeEmail',
    {
      config: { policy: 'signedIn', notAudited: 'always refused (403): writes nothing' },
      schema: {
        tags: ['visitor'],
        summary: 'Refused: the email is changed by whoever manages the user.',
        response: { 200: okAnswer, 403: errorRef },
        body: { type: 'object', additionalProperties: false, properties: { email: { type: 'string', maxLength: 254 } } },
      },
    },
    async () => {
      throw new ApiError(403, 'accounts.emailReadOnly');
    },
  );
}
