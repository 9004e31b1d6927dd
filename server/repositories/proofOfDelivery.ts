import type { Db } from '../db/index.js';
import type { TransportRequestPodTable } from '../db/types.js';
import { nowIso } from '../lib/tokens.js';
import { inScope, type RequestScope } from './transportRequests.js';

/** The file area of proofs of delivery (lib/files.ts; swept: lib/fileSweep.ts SWEPT_AREAS). */
export const POD_AREA = 'pods';

export type PodKind = TransportRequestPodTable['kind'];

export interface NewPod {
  transport_request_id: number;
  name: string;
  notes: string | null;
  kind: PodKind;
  stored_name: string;
  content_type: string;
  bytes: number;
  width: number | null;
  height: number | null;
  delivered_at: string;
  created_by: number | null;
}

/**
 * A request's proof of delivery (issue 36, migration 0028, docs/proof-of-delivery.md): one row per request.
 * Written in the delivery's transaction (routes/requests/status.ts), after its conditional status update.
 */
export function proofOfDeliveryRepo(db: Db) {
  return {
    /**
     * Stores the POD of a request; a POD already there (an admin moved a delivered request back and on again)
     * is replaced: answers the stored name of the replaced file, for the caller to remove after the commit.
     */
    async put(pod: NewPod): Promise<string | null> {
      const old = await db
        .selectFrom('transport_request_pods')
        .select('stored_name')
        .where('transport_request_id', '=', pod.transport_request_id)
        .executeTakeFirst();
      if (old) await db.deleteFrom('transport_request_pods').where('transport_request_id', '=', pod.transport_request_id).execute();
      await db
        .insertInto('transport_request_pods')
        .values({ ...pod, created_at: nowIso() })
        .execute();
      return old?.stored_name ?? null;
    },

    /** The PODs of these requests (metadata; the file's name too, for the serving route). */
    async ofRequests(ids: number[]) {
      if (!ids.length) return [];
      return db.selectFrom('transport_request_pods').selectAll().where('transport_request_id', 'in', ids).execute();
    },

    /** The POD of a request the scope may see (the request's scope as findScoped reads it). */
    async scoped(requestId: number, scope: RequestScope) {
      return inScope(db.selectFrom('transport_requests as tr'), scope)
        .innerJoin('transport_request_pods as p', 'p.transport_request_id', 'tr.id')
        .selectAll('p')
        .where('tr.id', '=', requestId)
        .executeTakeFirst();
    },
  };
}
