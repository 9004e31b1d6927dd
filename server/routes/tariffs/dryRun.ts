import { anyObject, bool, int, list, nullable, obj, str, type JsonSchema } from '../../lib/answers.js';

/**
 * The `dry_run` form field of every tariff upload (issue 20, docs/tariff-checks.md): 1 checks the file
 * and answers what a publish would do, storing nothing; 0 or absent publishes.
 */
export const dryRunField = { type: 'integer', enum: [0, 1], default: 0, description: '1: check the file and store nothing' } as const;

const shownRow: JsonSchema = { type: 'object', additionalProperties: { type: ['string', 'number', 'null'] } };

/** `{status: true, data: {dry_run: true, errors, summary, changes, impact}}`: the answer of a check. */
export const dryRunAnswer: JsonSchema = {
  type: 'object',
  required: ['status', 'data'],
  additionalProperties: false,
  properties: {
    status: bool,
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['dry_run', 'errors', 'summary', 'changes', 'impact'],
      properties: {
        dry_run: { type: 'boolean', const: true },
        errors: list({
          type: 'object',
          additionalProperties: false,
          required: ['row', 'column', 'message'],
          properties: { row: int, column: str, message: str },
        }),
        summary: obj({ added: int, changed: int, removed: int, unchanged: int }),
        changes: list({
          type: 'object',
          additionalProperties: false,
          required: ['key', 'before', 'after'],
          properties: { key: shownRow, before: nullable(shownRow), after: nullable(shownRow) },
        }),
        // Filled by a later part of issue 20 (the repricing of recent requests); null until then.
        impact: nullable(anyObject),
      },
    },
  },
};

/** A store route's 200: the publish's answer or a check's. */
export const storeOrCheck = (publish: JsonSchema): JsonSchema => ({ anyOf: [dryRunAnswer, publish] });
