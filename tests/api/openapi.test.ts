import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expect, it } from 'vitest';
import { describeEachDb } from './helpers.js';
import { openObjects } from './openapiShapes.js';
import { scopesOfRoute } from '../../model/apiKeys.js';

const run = promisify(execFile);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

type Requirement = Record<string, string[]>;
type Operation = {
  security?: Requirement[];
  'x-roles'?: string[];
  'x-api-key-scopes'?: string[];
  operationId?: string;
  summary?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

/**
 * /api/docs (issue 17): every operation has an operationId, a summary, a 2xx answer with its schema and the
 * ErrorBody for its errors; the document is valid OpenAPI (swagger-parser) and lints clean (redocly,
 * redocly.yaml at the repository root).
 */
describeEachDb('OpenAPI document', (p) => {
  let doc: any;

  it('is served at /api/docs, every operation documented', async () => {
    const res = await p().app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
    expect(doc.components.schemas.ErrorBody).toBeTruthy();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'apiPassword', 'bearer', 'streamTicket']);
    const ids = new Set<string>();
    let count = 0;
    for (const [url, item] of Object.entries<Record<string, Operation>>(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        count++;
        const where = `${method.toUpperCase()} ${url}`;
        expect(op.operationId, where).toMatch(/^[a-zA-Z][a-zA-Z0-9]*$/);
        expect(ids.has(op.operationId!), `${where}: operationId ${op.operationId} repeated`).toBe(false);
        ids.add(op.operationId!);
        expect(op.summary, where).toBeTruthy();
        const ok = Object.entries(op.responses ?? {}).filter(([code]) => /^2/.test(code));
        expect(ok.length, `${where}: no 2xx answer`).toBeGreaterThan(0);
        for (const [code, answer] of ok) {
          const media = Object.values(answer.content ?? {});
          expect(media.length > 0 && media.every((m) => m.schema), `${where} ${code}: no schema`).toBe(true);
        }
        for (const code of ['401', '404', '422', '500']) {
          const schema = op.responses?.[code]?.content?.['application/json']?.schema as { $ref?: string } | undefined;
          expect(schema?.$ref, `${where} ${code}`).toBe('#/components/schemas/ErrorBody');
        }
      }
    }
    // Every /api/v1 route is in the document.
    const routes = p().app.routeTable.filter((r) => r.method !== 'HEAD').length;
    expect(count).toBe(routes);
  });

  // Issue 33: the document is the contract a generated client types from.
  it('declares every object of every 2xx answer closed (or a map of one value type)', () => {
    expect(openObjects(doc).map((o) => `${o.operation} ${o.where}`)).toEqual([]);
  });

  it('declares file fields as binary parts with their types, and no file in a JSON body', () => {
    let files = 0;
    for (const [url, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of METHODS) {
        const content = item[method]?.requestBody?.content as Record<string, { schema: any; encoding?: Record<string, { contentType: string }> }> | undefined;
        for (const [type, media] of Object.entries(content ?? {})) {
          for (const [name, prop] of Object.entries<any>(media.schema?.properties ?? {})) {
            const where = `${method.toUpperCase()} ${url} ${type} ${name}`;
            // The old declaration ({type: object} for a file) and the server's marker never reach the document.
            expect(prop.$comment ?? prop.items?.$comment, where).toBeUndefined();
            const shapeless = (s: any) => s?.type === 'object' && !s.properties && typeof s.additionalProperties !== 'object';
            expect(shapeless(prop) || shapeless(prop.items), where).toBe(false);
            const file = prop.format === 'binary' ? prop : prop.items?.format === 'binary' ? prop.items : null;
            if (!file) continue;
            expect(type, where).toBe('multipart/form-data');
            expect(file.type, where).toBe('string');
            expect(file.contentMediaType, where).toBeTruthy();
            expect(file.description, where).toMatch(/at most \d+(\.\d)? (MB|kB)/);
            expect(media.encoding?.[name]?.contentType, where).toBeTruthy();
            files++;
          }
        }
      }
    }
    // the seven tariff tables and the rate sheet (admin and company), the booking documents, logos, pictures, templates
    expect(files).toBeGreaterThanOrEqual(19);
  });

  it('tells the unions of answers apart by a discriminator over named schemas (sign-in: step; tariff stores: outcome)', () => {
    const unions: string[] = [];
    for (const [url, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of METHODS) {
        const schema = item[method]?.responses?.['200']?.content?.['application/json']?.schema;
        if (!schema?.oneOf) continue;
        const where = `${method.toUpperCase()} ${url}`;
        expect(schema.discriminator?.propertyName, where).toMatch(/^(step|outcome)$/);
        const mapping = Object.entries<string>(schema.discriminator.mapping);
        expect(mapping.length, where).toBe(schema.oneOf.length);
        for (const [value, ref] of mapping) {
          const branch = doc.components.schemas[ref.replace('#/components/schemas/', '')];
          // each branch is closed and says its own value: a generated client narrows on it
          expect(branch?.additionalProperties, `${where} ${value}`).toBe(false);
          expect(branch.properties[schema.discriminator.propertyName].enum, `${where} ${value}`).toEqual([value]);
          expect(branch.required, `${where} ${value}`).toContain(schema.discriminator.propertyName);
        }
        unions.push(where);
      }
    }
    expect(unions).toContain('POST /api/v1/visitor/login');
    // the seven tables and the rate sheet, for admins and carriers
    expect(unions.filter((u) => /\/store$/.test(u)).length).toBeGreaterThanOrEqual(16);
  });

  it('declares Retry-After on every 429 and Content-Disposition on every file answer', () => {
    for (const [url, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const where = `${method.toUpperCase()} ${url}`;
        expect(op.responses['429']?.headers?.['Retry-After'], where).toBeTruthy();
        for (const [code, answer] of Object.entries<any>(op.responses)) {
          const binary = Object.values<any>(answer.content ?? {}).some((m) => m.schema?.format === 'binary');
          if (/^2/.test(code) && binary) expect(answer.headers?.['Content-Disposition'], `${where} ${code}`).toBeTruthy();
        }
      }
    }
  });

  // Issue 33: no global default; each operation's security is its route's policy (lib/apiKeyAuth.ts securitySchemaOf).
  it("declares every operation's security as its route's policy says", () => {
    expect(doc.security).toBeUndefined();
    const ALL = ['admin', 'carrier', 'enduser', 'support'];
    let checked = 0;
    for (const route of p().app.routeTable) {
      if (route.method === 'HEAD') continue;
      const op = doc.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()] as Operation | undefined;
      const where = `${route.method} ${route.url}`;
      expect(op, where).toBeTruthy();
      const security = op!.security;
      expect(Array.isArray(security) && security.length > 0, `${where}: no security`).toBe(true);
      const scopes = scopesOfRoute(`${route.method} ${route.url.slice('/api/v1'.length)}`);
      const keyed = security!.filter((r) => 'apiKey' in r);
      expect(keyed, `${where}: API key`).toEqual(scopes.length ? [{ apiPassword: [], apiKey: scopes }] : []);
      expect(op!['x-api-key-scopes'], where).toEqual(scopes.length ? scopes : undefined);
      const rest = security!.filter((r) => !('apiKey' in r));
      // the live stream routes (config.liveTicket: GET /{ns}/events, routes/shared/events.ts)
      const live = route.method === 'GET' && /^\/api\/v1\/(admin|company|enduser)\/events$/.test(route.url);
      if (live) {
        // the stream: its one-time ticket only
        expect(security, where).toEqual([{ streamTicket: [] }]);
      } else if (route.policy === 'public') {
        // anonymous callers: the API password alone is one way in (an optional bearer may be another)
        expect(rest, where).toContainEqual({ apiPassword: [] });
        for (const r of rest)
          expect(
            Object.keys(r).every((k) => k === 'apiPassword' || k === 'bearer'),
            where,
          ).toBe(true);
      } else {
        // signed in: never without the bearer token (or a key)
        expect(rest, where).toEqual([{ apiPassword: [], bearer: [] }]);
      }
      if (route.policy === 'public') expect(op!['x-roles'], where).toBeUndefined();
      else expect(op!['x-roles'], where).toEqual(route.policy === 'signedIn' ? ALL : route.policy);
      checked++;
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('is valid OpenAPI and passes redocly lint', async () => {
    await SwaggerParser.validate(structuredClone(doc));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    const redocly = path.resolve('node_modules/.bin/redocly');
    let out = '';
    try {
      const r = await run(redocly, ['lint', file, '--config', path.resolve('redocly.yaml'), '--format=json'], { maxBuffer: 64 * 1024 * 1024 });
      out = r.stdout;
    } catch (err) {
      out = (err as { stdout?: string }).stdout ?? '';
      if (!out) throw err;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const report = JSON.parse(out) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; severity: string; message: string; location?: Array<{ pointer?: string }> }>;
    };
    const errors = report.problems.filter((x) => x.severity === 'error').map((x) => `${x.ruleId}: ${x.message} at ${x.location?.[0]?.pointer}`);
    expect(errors).toEqual([]);
    expect(report.totals.warnings).toBeLessThanOrEqual(10);
  }, 120_000);
});
