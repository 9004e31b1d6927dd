import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { MAIL_STATUS_IDS } from '../../../model/notifications.js';
import { TRANSPORT_REQUEST_STATUSES } from '../../../model/transportStatuses.js';
import { oneOf } from '../../lib/columns.js';
import { bool, list, obj, writeAnswer } from '../../lib/answers.js';
import { consigneeMailRepo } from '../../repositories/notifications.js';

// one switch per status of MAIL_STATUS_IDS (model/notifications.ts), named as model/transportStatuses.ts names it
const switchRow = obj({
  status_id: oneOf(
    Object.fromEntries(TRANSPORT_REQUEST_STATUSES.filter((s) => MAIL_STATUS_IDS.includes(s.id)).map((s) => [s.id, s.name])),
    'The status a request moves to',
  ),
  enabled: bool,
});
const switches = (off: number[]) => MAIL_STATUS_IDS.map((status_id) => ({ status_id, enabled: !off.includes(status_id) }));

/**
 * A carrier's consignee mail switches (issue 22 item 4, docs/notifications.md): per status a request moves
 * to, whether the consignees named on its requests are mailed. All on by default; the customer's own mail
 * is always sent. The company is the caller's (from the token), never from the body.
 */
export default async function notificationSettingsRoutes(app: App) {
  const repo = consigneeMailRepo(app.db);
  const tags = ['notifications'];

  app.get(
    '/company/notification_settings',
    {
      config: { policy: kindsFor('notification-settings', 'show') },
      schema: {
        tags,
        summary: "The caller's company consignee mail switches, one per status.",
        response: { 200: obj({ status: bool, data: obj({ consignee: list(switchRow) }) }) },
      },
    },
    async (req) => ({ status: true, data: { consignee: switches(await repo.offFor(req.user!.company_id)) } }),
  );

  app.post(
    '/company/notification_settings/update',
    {
      config: { policy: kindsFor('notification-settings', 'edit') },
      schema: {
        tags,
        summary: "Switches the caller's company consignee mails on or off per status; statuses not listed stay as they are.",
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['consignee'],
          properties: {
            consignee: {
              type: 'array',
              minItems: 1,
              maxItems: MAIL_STATUS_IDS.length,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['status_id', 'enabled'],
                properties: { status_id: { type: 'integer', enum: [...MAIL_STATUS_IDS] }, enabled: { type: 'boolean' } },
              },
            },
          },
        },
        response: { 200: writeAnswer(obj({ consignee: list(switchRow) })) },
      },
    },
    async (req) => {
      const companyId = req.user!.company_id;
      const before = await repo.offFor(companyId);
      // the last word for a status wins when one is listed twice
      const wanted = new Map(req.body.consignee.map((s) => [s.status_id, s.enabled]));
      await repo.set(
        companyId,
        [...wanted].map(([status_id, enabled]) => ({ status_id, enabled })),
      );
      const after = await repo.offFor(companyId);
      const changes = Object.fromEntries(
        MAIL_STATUS_IDS.filter((s) => before.includes(s) !== after.includes(s)).map((s) => [
          `consignee_mail_${s}`,
          { before: !before.includes(s), after: !after.includes(s) },
        ]),
      );
      req.audit({ action: 'update', resource: 'notification_settings', resource_id: companyId, company_id: companyId, changes });
      return { status: true, message: req.t('notifications.settingsSaved'), data: { consignee: switches(after) } };
    },
  );
}
