import type { App } from '../../lib/typed.js';
import { bool, dataAnswer, obj, okAnswer } from '../../lib/answers.js';
import { conflict, notFound } from '../../lib/errors.js';
import { mfaRepo } from '../../repositories/mfa.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } } as const;

/**
 * An admin's view of a user's two-step verification, and its reset for a user who lost both the phone
 * and the recovery codes (docs/two-factor.md): the user signs in with the password and may enrol again.
 */
export default async function adminMfaRoutes(app: App) {
  const mfa = mfaRepo(app.db);
  const userOf = (id: number) => app.db.selectFrom('users').select(['id', 'company_id']).where('id', '=', id).executeTakeFirst();
  const userExists = async (id: number) => !!(await userOf(id));

  app.get(
    '/admin/users/mfa/:id',
    {
      config: { policy: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: "Whether a user's two-step verification is on.",
        params: idParams,
        response: { 200: dataAnswer(obj({ enabled: bool })) },
      },
    },
    async (req) => {
      if (!(await userExists(req.params.id))) throw notFound();
      return { status: true, data: { enabled: await mfa.isEnabled(req.params.id) } };
    },
  );

  app.post(
    '/admin/users/mfaReset/:id',
    {
      config: { policy: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: "Turns a user's two-step verification off (lost phone and recovery codes).",
        params: idParams,
        response: { 200: okAnswer },
      },
    },
    async (req) => {
      const user = await userOf(req.params.id);
      if (!user) throw notFound();
      if (!(await mfa.isEnabled(user.id))) throw conflict('mfa.notEnabled');
      await mfa.disable(user.id);
      req.audit({ action: 'mfa_disable', resource: 'users', resource_id: user.id, company_id: user.company_id });
      return { status: true, message: req.t('mfa.resetDone') };
    },
  );
}
