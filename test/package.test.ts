// The package as users import it: its `exports` entry points, resolved by Node itself (a package
// may import itself by name), from the built dist/ that `npm install` produces.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/api/openapi.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function inNode(code: string): unknown {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

describe('package exports', () => {
  it('"contacts-cli" offers the client, its errors and the contract', () => {
    const names = inNode(
      `const m = await import('contacts-cli'); console.log(JSON.stringify(Object.keys(m).sort()));`,
    ) as string[];
    for (const name of [
      'ContactsClient',
      'APIError',
      'NotFoundError',
      'RateLimitError',
      'ContactSchema',
      'ContactInputSchema',
      'createContactValidators',
      'ErrorBodySchema',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('"contacts-cli/mock" offers the server, the msw handlers and the core', () => {
    const names = inNode(
      `const m = await import('contacts-cli/mock'); console.log(JSON.stringify(Object.keys(m).sort()));`,
    ) as string[];
    for (const name of ['startMockServer', 'createMockHandlers', 'handleRequest', 'createMockStore']) {
      expect(names).toContain(name);
    }
  });

  it('"contacts-cli/openapi.json" is the OpenAPI 3.1 document generated from the contract', () => {
    const doc = inNode(
      `import { createRequire } from 'node:module'; const r = createRequire(process.cwd() + '/'); console.log(JSON.stringify(r('contacts-cli/openapi.json')));`,
    ) as { openapi: string; info: { version: string } };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc).toEqual(buildOpenApiDocument(doc.info.version));
  });
});
