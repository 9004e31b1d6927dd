import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasMessage } from '../i18n/index.js';
import { ApiError, type FieldErrors } from '../lib/errors.js';

type AjvError = { instancePath: string; keyword: string; params: Record<string, any>; message?: string };

/** A field's name in the user's language when we have one, else the name with spaces. */
function fieldLabel(req: FastifyRequest, field: string) {
  // A declared resource's own label first (model/resource.ts serverMessages), then the shared one.
  const resource = req.routeOptions?.config?.resource;
  if (resource && hasMessage(`field.${resource}.${field}`)) return req.t(`field.${resource}.${field}`);
  const key = `field.${field}`;
  return hasMessage(key) ? req.t(key) : field.replace(/_/g, ' ');
}

function translateFieldErrors(req: FastifyRequest, errors: FieldErrors) {
  const out: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(errors)) {
    out[field] = list.map((e) => req.t(e.key, { ...e.params, field: fieldLabel(req, String(e.params?.field ?? field)) }));
  }
  return out;
}

/** AJV's errors as `{field: [message keys]}`; nested paths keep their dots (`pallets.0.weight`). */
export function ajvToFieldErrors(validation: AjvError[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of validation) {
    let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (e.keyword === 'required') field = field ? `${field}.${e.params.missingProperty}` : e.params.missingProperty;
    if (!field) field = 'body';
    const leaf =
      field
        .split('.')
        .filter((p) => !/^\d+$/.test(p))
        .pop() ?? field;
    const params: Record<string, unknown> = { field: leaf };
    let key = `validation.${e.keyword}`;
    if (
      e.keyword === 'minLength' ||
      e.keyword === 'maxLength' ||
      e.keyword === 'minimum' ||
      e.keyword === 'maximum' ||
      e.keyword === 'exclusiveMinimum' ||
      e.keyword === 'exclusiveMaximum'
    )
      params.limit = e.params.limit;
    else if (e.keyword === 'type') params.typeKey = `type.${String(e.params.type).split(',')[0]}`;
    else if (e.keyword === 'format') params.formatKey = `format.${e.params.format}`;
    else if (!['required', 'enum', 'pattern'].includes(e.keyword)) key = 'validation.invalid';
    (out[field] ??= []).push({ key, params });
  }
  return out;
}

async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    if (error instanceof ApiError) {
      const errors = error.fieldErrors ? translateFieldErrors(req, error.fieldErrors) : {};
      if (error.headers) reply.headers(error.headers);
      const body: Record<string, unknown> = { message: req.t(error.key, error.params), errors };
      if (error.data) body.data = error.data;
      return reply.status(error.statusCode).send(body);
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      const fields = ajvToFieldErrors(fe.validation as AjvError[]);
      for (const list of Object.values(fields)) {
        for (const e of list) {
          if (e.params?.typeKey) e.params.type = req.t(String(e.params.typeKey));
          if (e.params?.formatKey) e.params.format = req.t(String(e.params.formatKey));
        }
      }
      return reply.status(422).send({ message: req.t('errors.validation'), errors: translateFieldErrors(req, fields) });
    }
    const status = fe.statusCode ?? 500;
    if (status === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // A route with its own upload cap names it in its config (e.g. tariff files).
      const limit = req.routeOptions?.config?.uploadLimit ?? '5 MB';
      return reply.status(413).send({ message: req.t('errors.tooLarge', { limit }), errors: {} });
    }
    if (status === 429) return reply.status(429).send({ message: req.t('errors.tooManyRequests'), errors: {} });
    if (status >= 400 && status < 500) {
      // Malformed JSON, unsupported media type and the like: a plain 4xx without internals.
      return reply.status(status === 415 || status === 400 ? status : 400).send({ message: req.t('errors.validation'), errors: {} });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: req.t('errors.internal'), errors: {} });
  });
}

export default fp(errors, { name: 'errors' });
