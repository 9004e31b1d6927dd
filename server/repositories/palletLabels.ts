import type { Db } from '../db/index.js';
import { ApiError, conflict } from '../lib/errors.js';
import { isUniqueViolation } from '../lib/dependents.js';
import { nowIso } from '../lib/tokens.js';
import { buildSscc, maxSerial } from '../../model/sscc.js';

/** A pallet of a request as its label needs it: its row, its shipment and its SSCC. */
export interface LabelledPallet {
  id: number;
  shipment_id: number;
  sscc: string;
}

/** The first print lost a race to another one: the transaction is rolled back and the stored numbers read again. */
class LostRace extends Error {}

/** How many times the numbering is tried again after losing a race (each loss means the other print finished). */
const ATTEMPTS = 5;

/**
 * Pallet labels (issue 36 item 3, docs/pallet-labels.md): the carriers' `label_settings` (GS1 company prefix,
 * SSCC serial counter) and the `sscc` column of a request's pallets (`shipment_details` rows of type 1, the
 * only column of that table this repository writes).
 */
export function palletLabelsRepo(db: Db) {
  return {
    /** The carrier's prefix, null when it has none. */
    async prefixOf(companyId: number): Promise<string | null> {
      const row = await db.selectFrom('label_settings').select('gs1_company_prefix').where('company_id', '=', companyId).executeTakeFirst();
      return row?.gs1_company_prefix ?? null;
    },

    /** Whether another company holds this prefix (GS1 assigns one prefix to one company). */
    async prefixTaken(prefix: string, companyId: number): Promise<boolean> {
      const row = await db
        .selectFrom('label_settings')
        .select('company_id')
        .where('gs1_company_prefix', '=', prefix)
        .where('company_id', '<>', companyId)
        .executeTakeFirst();
      return !!row;
    },

    /**
     * Sets the carrier's prefix (it can be changed, not removed: the row also holds the serial counter). The
     * counter stays as it is: SSCCs already printed keep their numbers, and going back to an earlier prefix
     * never makes a number twice.
     */
    async setPrefix(companyId: number, prefix: string): Promise<void> {
      const now = nowIso();
      try {
        await db
          .insertInto('label_settings')
          .values({ company_id: companyId, gs1_company_prefix: prefix, last_serial: 0, updated_at: now })
          .onConflict((oc) => oc.column('company_id').doUpdateSet({ gs1_company_prefix: prefix, updated_at: now }))
          .execute();
      } catch (err) {
        // two companies saving the same prefix at once: the unique index refuses the second
        if (isUniqueViolation(err)) throw new ApiError(422, 'errors.validation', undefined, { gs1_company_prefix: [{ key: 'labels.prefixTaken' }] });
        throw err;
      }
    },

    /** The carrier's counter: how many serials it used (for the settings screen). */
    async lastSerial(companyId: number): Promise<number> {
      const row = await db.selectFrom('label_settings').select('last_serial').where('company_id', '=', companyId).executeTakeFirst();
      return Number(row?.last_serial ?? 0);
    },

    /**
     * The pallets of a request with their SSCCs, numbering those without one (the first print) from the
     * carrier's counter. Race-safe: the counter is advanced by an UPDATE (PostgreSQL locks the carrier's row
     * until the commit; SQLite runs one write transaction at a time) and each SSCC is stored only where the
     * pallet still has none; a print that finds a pallet numbered meanwhile lost the race: it rolls back (its
     * serials unused, a gap GS1 allows) and reads the winner's numbers. So two first prints at once answer the
     * same SSCCs, and a later print answers them again. `noPrefix` when a number is needed and the carrier has
     * no prefix; a 409 when its prefix has no serial left.
     */
    async numberPallets(requestId: number, carrierId: number): Promise<LabelledPallet[] | 'noPrefix'> {
      for (let attempt = 0; ; attempt++) {
        try {
          return await db.transaction().execute(async (trx) => {
            const pallets = await trx
              .selectFrom('shipment_details as d')
              .innerJoin('shipments as s', 's.id', 'd.shipment_id')
              .select(['d.id', 'd.shipment_id', 'd.sscc'])
              .where('s.transport_request_id', '=', requestId)
              .where('d.shipment_type_id', '=', 1)
              .orderBy('s.position')
              .orderBy('d.position')
              .execute();
            const missing = pallets.filter((p) => !p.sscc);
            if (!missing.length) return pallets.map((p) => ({ ...p, sscc: p.sscc! }));
            const counter = await trx
              .updateTable('label_settings')
              .set((eb) => ({ last_serial: eb('last_serial', '+', missing.length) }))
              .where('company_id', '=', carrierId)
              .returning(['last_serial', 'gs1_company_prefix'])
              .executeTakeFirst();
            if (!counter) return 'noPrefix' as const;
            const prefix = counter.gs1_company_prefix;
            const last = Number(counter.last_serial);
            if (last > maxSerial(prefix)) {
              throw conflict('labels.serialsExhausted', { prefix, max: maxSerial(prefix) });
            }
            const given = new Map<number, string>();
            let serial = last - missing.length + 1;
            for (const p of missing) {
              const sscc = buildSscc(prefix, serial++);
              const r = await trx.updateTable('shipment_details').set({ sscc }).where('id', '=', p.id).where('sscc', 'is', null).executeTakeFirst();
              if (Number(r.numUpdatedRows) !== 1) throw new LostRace();
              given.set(p.id, sscc);
            }
            return pallets.map((p) => ({ id: p.id, shipment_id: p.shipment_id, sscc: p.sscc ?? given.get(p.id)! }));
          });
        } catch (err) {
          // A lost race, or the winner's number met by the unique index: read again (a few times at most).
          if (attempt < ATTEMPTS && (err instanceof LostRace || isUniqueViolation(err))) continue;
          // The same number met again and again means two carriers hold overlapping prefixes (a 7-digit one
          // and a longer one beginning with it): a conflict to sort out with GS1, never a duplicate label.
          if (isUniqueViolation(err)) throw conflict('labels.ssccTaken');
          if (err instanceof LostRace) throw conflict();
          throw err;
        }
      }
    },
  };
}
