import type { App } from '../../lib/typed.js';
import { kindsFor } from '../../../model/permissions.js';
import { NOTIFICATION_NAMESPACES } from '../../../model/notifications.js';
import { REQUEST_EVENTS } from '../../../model/requestTimeline.js';
import { TRANSPORT_REQUEST_STATUSES } from '../../../model/transportStatuses.js';
import { oneOf } from '../../lib/columns.js';
import { MAX_PAGE } from '../../lib/paging.js';
import { bool, int, obj, pagedAnswer, str, strN, writeAnswer } from '../../lib/answers.js';
import { notificationsRepo } from '../../repositories/notifications.js';

const item = obj({
  id: int,
  transport_request_id: int,
  event: { type: 'string', enum: [...REQUEST_EVENTS] },
  // the status the request moved to (model/transportStatuses.ts)
  status_id: oneOf(Object.fromEntries(TRANSPORT_REQUEST_STATUSES.map((s) => [s.id, s.name])), 'The transport-request status'),
  created_at: str,
  read: bool,
  read_at: strN,
  actor: strN,
});

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    unread: { type: 'integer', enum: [0, 1], description: '1: the unread ones only' },
  },
} as const;

const readBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  maxProperties: 1,
  properties: {
    ids: {
      type: 'array',
      minItems: 1,
      maxItems: 500,
      uniqueItems: true,
      items: { type: 'integer', minimum: 1 },
      description: 'the caller’s notifications to mark read',
    },
    all: { type: 'boolean', const: true, description: 'every unread notification of the caller' },
  },
} as const;

/**
 * The in-app bell (issue 22 item 4, docs/notifications.md), for each kind that sees requests: its own page of
 * notifications (newest first, `unread=1`), its unread count, and marking its own read. A user only ever reads
 * or marks the rows written for it (the tenancy is the row's user: every query is on the caller's id).
 */
export default async function notificationRoutes(app: App) {
  const repo = notificationsRepo(app.db);

  for (const [kind, ns] of Object.entries(NOTIFICATION_NAMESPACES)) {
    const tags = ['notifications'];
    const policy = (action: 'list' | 'edit') => ({ policy: kindsFor('notifications', action).filter((k) => k === kind) });

    app.get(
      `/${ns}/notifications`,
      {
        config: policy('list'),
        schema: { tags, summary: "A page of the caller's notifications, newest first.", querystring: listQuery, response: { 200: pagedAnswer(item) } },
      },
      async (req) => repo.page(req.user!.id, { page: req.query.page ?? 1, per_page: req.query.per_page ?? 10, unread: req.query.unread === 1 }),
    );

    app.get(
      `/${ns}/notifications/count`,
      {
        config: policy('list'),
        schema: { tags, summary: "How many of the caller's notifications are unread.", response: { 200: obj({ status: bool, data: obj({ unread: int }) }) } },
      },
      async (req) => ({ status: true, data: { unread: await repo.unread(req.user!.id) } }),
    );

    app.post(
      `/${ns}/notifications/read`,
      {
        config: { ...policy('edit'), notAudited: 'a read receipt on the caller’s own notifications: changes no business record' },
        schema: {
          tags,
          summary: "Marks the caller's notifications read: the given ids (others' ids change nothing) or all.",
          body: readBody,
          response: { 200: writeAnswer(obj({ marked: int, unread: int })) },
        },
      },
      async (req) => {
        const me = req.user!;
        const marked = await repo.markRead(me.id, req.body.all ? 'all' : (req.body.ids ?? []));
        return { status: true, message: req.t('notifications.read', { count: marked }), data: { marked, unread: await repo.unread(me.id) } };
      },
    );
  }
}
