import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_PASSWORD, DEMO, describeEachDb, type TestPortal } from './helpers.js';
import { ensureDocumentType } from './requestsFixtures.js';
import { startReceiver } from './webhookReceiver.js';

/**
 * The contract is the types (issue 33): a client generated from the served /api/docs (openapi-typescript)
 * compiles a strict sample integration (tests/api/client/sample.ts, the one of docs/integrations.md) with no
 * cast, then that sample runs against a test server: sign-in, quote, booking with a file, list, show, a
 * status change, an API key, a verified webhook.
 *
 * Choices:
 * - The types are generated once per file (about 7 s for the whole document), into `.tmp/` under the
 *   repository (ignored by git and Prettier) so that the sample's imports (openapi-fetch, standardwebhooks,
 *   @types/node) resolve from the repository's node_modules; the sample is copied beside them, because it
 *   imports `./api`. The root tsconfig leaves tests/api/client out for that reason.
 * - Compiled through the TypeScript API (no child process): `strict`, `noImplicitAny`,
 *   `noUncheckedIndexedAccess`; a second program reuses the first (oldProgram) for the broken variant.
 * - Besides the compiler, the sample's syntax tree is checked for `as` / `<T>x` casts, `any` and `!`: the
 *   point is that it needs none.
 * - It runs against the app listening on 127.0.0.1:0 with plain fetch (the real HTTP path, multipart
 *   included), and a local webhook receiver; the worker's poll is off in tests, so `nextWebhook` drains it.
 */
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const SAMPLE = path.join(ROOT, 'tests/api/client/sample.ts');

interface Generated {
  dir: string;
  sample: string;
  /** The broken variants of the sample, each must fail to compile. */
  broken: string[];
  program: ts.Program;
}
let generated: Promise<Generated> | undefined;

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noImplicitAny: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: ['node'],
  // the generated api.d.ts is a declaration file too: its own consistency is openapi-typescript's concern
  skipLibCheck: true,
};

/**
 * Variants of the sample that must not compile, so the check cannot pass vacuously (e.g. were the sample's
 * types to become `any`): each replaces one piece of the sample, which must be there.
 */
const BROKEN: Array<[string, string]> = [
  // a property of the show answer that the document does not declare
  ['statusName: shown.data.data.transport_request_status.name,', 'statusName: shown.data.data.transport_request_status.nome,'],
  // the sign-in answer read without narrowing on `step`: the challenge branch has no token
  ["if (data.step !== 'signed_in') throw", 'if (data.status !== true) throw'],
  // a body property the operation does not take
  ["body: { name: 'Typed client', scopes: ['requests:read'] }", "body: { name: 'Typed client', scopes: ['requests:read'], owner: 1 }"],
];

/** The compiler's messages for one file of a program (and the program's own), one line each. */
function diagnosticsOf(program: ts.Program, file: string) {
  const source = program.getSourceFile(file);
  const all = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(source),
    ...program.getSemanticDiagnostics(source),
  ];
  return all.map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

/**
 * Generates api.d.ts from the served document (once per file), writes the sample and its broken variants
 * beside it and makes one program of them all (one type check: the document's types are the slow part).
 */
function generate(p: TestPortal): Promise<Generated> {
  generated ??= (async () => {
    const res = await p.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const dir = path.join(ROOT, '.tmp', `generated-client-${crypto.randomBytes(4).toString('hex')}`);
    fs.mkdirSync(dir, { recursive: true });
    // Files: a binary part is a Blob (openapi-typescript's documented transform; by default it would be a string).
    const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
    const ast = await openapiTS(res.json(), { silent: true, transform: (schema) => (schema.format === 'binary' ? blob : undefined) });
    fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(ast));
    const source = fs.readFileSync(SAMPLE, 'utf8');
    const sample = path.join(dir, 'sample.ts');
    fs.writeFileSync(sample, source);
    const broken = BROKEN.map(([from, to], i) => {
      if (!source.includes(from)) throw new Error(`the sample no longer has ${from}: update BROKEN`);
      const file = path.join(dir, `broken${i}.ts`);
      fs.writeFileSync(file, source.replace(from, to));
      return file;
    });
    return { dir, sample, broken, program: ts.createProgram([sample, ...broken], OPTIONS) };
  })();
  return generated;
}

afterAll(async () => {
  if (!generated) return;
  const g = await generated.catch(() => undefined);
  if (g) fs.rmSync(g.dir, { recursive: true, force: true });
});

/** The casts, `any` and non-null assertions of a source file (`line: text`). */
function shortcutsIn(file: ts.SourceFile) {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node) || node.kind === ts.SyntaxKind.AnyKeyword) {
      found.push(`${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.getText(file)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describeEachDb(
  'a client generated from the OpenAPI document',
  (p) => {
    beforeAll(async () => {
      await ensureDocumentType(p());
    });

    it('compiles the sample integration strictly, with no cast, no any and no non-null assertion', async () => {
      const g = await generate(p());
      expect(diagnosticsOf(g.program, g.sample)).toEqual([]);
      const file = g.program.getSourceFile(g.sample);
      expect(file).toBeTruthy();
      expect(shortcutsIn(file!)).toEqual([]);
    }, 60_000);

    it('does not compile a sample that reads or sends what the document does not declare (the check is not vacuous)', async () => {
      const g = await generate(p());
      const expected = [/nome/, /token/, /owner/];
      g.broken.forEach((file, i) => {
        const errors = diagnosticsOf(g.program, file);
        expect(errors.length, `broken variant ${i} compiled`).toBeGreaterThan(0);
        expect(errors.join('\n')).toMatch(expected[i]);
      });
    }, 60_000);

    it('runs the sample against the server: sign-in, quote, booking with a file, list, show, status, API key, webhook', async () => {
      const g = await generate(p());
      const app = p().app;
      await app.listen({ host: '127.0.0.1', port: 0 });
      const receiver = await startReceiver();
      try {
        const mod: {
          runSample: (o: unknown) => Promise<{
            requestId: number;
            pickupCity: string | null;
            statusName: string;
            statusWithKey: number;
            webhookType: string;
            webhookStatusName: string;
            quoteTotal: number;
          }>;
        } = await import(pathToFileURL(g.sample).href);
        const result = await mod.runSample({
          baseUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
          apiPassword: API_PASSWORD,
          enduser: { email: DEMO.enduser, password: DEMO.password },
          carrier: { email: DEMO.carrier, password: DEMO.password },
          document: { name: 'bolla.pdf', file: new Blob(['%PDF-1.4\n' + 'A'.repeat(512)], { type: 'application/pdf' }) },
          webhookUrl: receiver.url,
          async nextWebhook() {
            await app.webhooks.drain();
            const m = receiver.received.at(-1);
            if (!m) throw new Error('no webhook received');
            return { body: m.body, headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, String(v)])) };
          },
        });
        expect(result).toMatchObject({
          pickupCity: 'Bologna',
          statusName: 'OP',
          statusWithKey: 4,
          webhookType: 'transport_request.status_changed',
        });
        expect(result.quoteTotal).toBeGreaterThan(0);
        expect(result.webhookStatusName).toBeTruthy();
        const docs = await p()
          .db.db.selectFrom('transport_request_documents')
          .select('filename')
          .where('transport_request_id', '=', result.requestId)
          .execute();
        expect(docs.map((d) => d.filename)).toEqual(['bolla.pdf']);
      } finally {
        await receiver.close();
      }
    }, 60_000);
  },
  // Every answer is checked against its schema here too (plugins/answers.ts validateResponses): the types the
  // sample compiled against are what the server sends.
);
