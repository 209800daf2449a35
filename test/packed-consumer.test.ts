// The packed package as library users consume it: a strict TypeScript project that checks every
// declaration it reaches (`skipLibCheck: false`) under each module resolution users pick, and
// CommonJS code that require()s it, as docs/library.md says. Installed from the tarball with msw
// (the optional peer `contacts-cli/mock/msw` needs) and @types/node beside it, as such a project
// has them.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Packed, packAndInstall, ROOT } from './helpers/packed.js';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

let packed: Packed;

beforeAll(async () => {
  packed = await packAndInstall({ devDependencies: ['msw', '@types/node'] });
  return () => packed.remove();
}, 180_000);

// Uses the main types of the three entries that need nothing beside the package.
const CORE = `
import {
  APIError,
  type ClientOptions,
  type Contact,
  type ContactInput,
  type ContactPage,
  ContactSchema,
  ContactsClient,
  dataPayload,
  NotFoundError,
} from 'contacts-cli';
import { type ImportOptions, type ImportReport, runImport, type UndoReport, undoImport } from 'contacts-cli/import';
import { createMockStore, type MockServer, type MockStore, startMockServer } from 'contacts-cli/mock';

export async function core(): Promise<string[]> {
  const mock: MockServer = await startMockServer({ port: 0 });
  const options: ClientOptions = { baseUrl: mock.url, apiKey: 'bk_consumer', agentId: 'a1' };
  const client = new ContactsClient(options);
  const input: ContactInput = { external_id: 'u_1', name: 'Ada', custom_attributes: { plan: 'pro' } };
  const { contact, created } = await client.contacts.upsert(input);
  const page: ContactPage = await client.contacts.list({ page: 1, perPage: 10 });
  const first: Contact | undefined = page.data[0];
  const parsed: Contact = dataPayload(ContactSchema).parse({ message: 'Success', data: contact });
  try {
    await client.contacts.get('nobody');
  } catch (error) {
    if (error instanceof NotFoundError) console.log(error.status);
    else if (error instanceof APIError) console.log(error.body);
  }
  const importOptions: ImportOptions = { client, agentId: 'a1', input: 'people.csv', dryRun: true };
  const report: ImportReport = await runImport(importOptions);
  const undone: UndoReport = await undoImport({ client, agentId: 'a1', record: 'latest', dryRun: true });
  const store: MockStore = createMockStore();
  await client.close();
  await mock.close();
  return [contact.id, String(created), first?.email ?? '', parsed.external_id, String(report.rows), String(undone.deleted), typeof store];
}
`;

// The msw entry, with msw's own setupServer.
const MSW = `
import { setupServer } from 'msw/node';
import { createMockHandlers, type MockHandlersOptions } from 'contacts-cli/mock/msw';

const options: MockHandlersOptions = { baseUrl: 'https://api.example.com', agents: ['a1'] };
export const server = setupServer(...createMockHandlers(options));
`;

// CommonJS TypeScript (a .cts file): TypeScript 5.8 and later compile these imports to require()
// under \`module: nodenext\`, as Node 20.19+ and 22.12+ run them.
const CJS = `
import { type Contact, ContactsClient } from 'contacts-cli';
import { runImport } from 'contacts-cli/import';
import { startMockServer } from 'contacts-cli/mock';
import { createMockHandlers } from 'contacts-cli/mock/msw';

export function describeContact(c: Contact): string {
  const client = new ContactsClient({ apiKey: 'bk_consumer' });
  return [c.external_id, typeof client.contacts.list, typeof runImport, typeof startMockServer, typeof createMockHandlers].join(' ');
}
`;

interface Project {
  /** What the project's tsconfig.json sets beside strict and skipLibCheck: false. */
  compilerOptions: Record<string, unknown>;
  files: Record<string, string>;
}

/** Writes the project under the app (so it finds the app's node_modules) and runs our tsc on it. */
async function typecheck(
  name: string,
  project: Project,
): Promise<{ code: number; out: string; files: string[] }> {
  const dir = join(packed.app, name);
  await mkdir(dir);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  const tsconfig = {
    compilerOptions: {
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      target: 'ES2022',
      types: ['node'],
      listFiles: true,
      ...project.compilerOptions,
    },
    include: Object.keys(project.files),
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  for (const [file, text] of Object.entries(project.files)) await writeFile(join(dir, file), text);
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', dir], { cwd: dir, maxBuffer: 64 << 20 });
    return { code: 0, out: '', files: stdout.split('\n').filter(Boolean) };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    // Every line of the output but the files --listFiles names: the compiler's errors.
    const out = `${e.stdout ?? ''}${e.stderr ?? ''}`
      .split('\n')
      .filter((line) => line && !line.startsWith('/'))
      .join('\n');
    return { code: e.code ?? 1, out, files: [] };
  }
}

// tsc reads every declaration of zod, undici, msw and @types/node here: tens of seconds of CPU
// each, more on a busy machine. The bound is on a hang; nothing asserts how long it took.
const TSC_TIMEOUT = 600_000;

describe('the published declarations under a strict consumer (skipLibCheck: false)', () => {
  it(
    'compile with module nodenext: every entry, from ES modules and from CommonJS (.cts)',
    async () => {
      const result = await typecheck('nodenext', {
        // msw's declarations name the DOM's types (MessageEvent, RequestMode): its users have them.
        compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', lib: ['ES2023', 'DOM'] },
        files: { 'core.ts': CORE, 'msw.ts': MSW, 'cjs.cts': CJS },
      });
      expect(result.out).toBe('');
      expect(result.code).toBe(0);
      expect(result.files.some((f) => f.endsWith('contacts-cli/dist/mock/msw.d.ts'))).toBe(true);
    },
    TSC_TIMEOUT,
  );

  it(
    'compile with moduleResolution bundler: every entry',
    async () => {
      const result = await typecheck('bundler', {
        compilerOptions: { module: 'preserve', moduleResolution: 'bundler', lib: ['ES2023', 'DOM'] },
        files: { 'core.ts': CORE, 'msw.ts': MSW },
      });
      expect(result.out).toBe('');
      expect(result.code).toBe(0);
    },
    TSC_TIMEOUT,
  );

  it(
    'need neither msw nor the DOM library for the entries other than contacts-cli/mock/msw',
    async () => {
      const result = await typecheck('node16-no-msw', {
        compilerOptions: { module: 'node16', moduleResolution: 'node16', lib: ['ES2023'] },
        files: { 'core.ts': CORE },
      });
      expect(result.out).toBe('');
      expect(result.code).toBe(0);
      // Read from the package, and nothing of msw's: a project without msw compiles the same.
      expect(result.files.some((f) => f.includes('/node_modules/contacts-cli/dist/'))).toBe(true);
      expect(result.files.filter((f) => /\/node_modules\/(msw|@mswjs)\//.test(f))).toEqual([]);
    },
    TSC_TIMEOUT,
  );
});

const ENTRIES = ['contacts-cli', 'contacts-cli/import', 'contacts-cli/mock', 'contacts-cli/mock/msw'];

/** Whether this Node require()s ES modules by default: 20.19+, 22.12+, 23 and later. */
function requiresEsm(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major >= 23 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
}

/** Runs CommonJS code with the installed package, on this test's Node. */
async function commonJs(code: string, flags: string[] = []) {
  try {
    const { stdout, stderr } = await run(process.execPath, [...flags, '--input-type=commonjs', '-e', code], {
      cwd: packed.app,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The ```js blocks of docs/library.md's section on CommonJS. */
async function commonJsExamples(): Promise<string[]> {
  const doc = await readFile(join(ROOT, 'docs', 'library.md'), 'utf8');
  const start = doc.indexOf('\n## ES modules and CommonJS');
  expect(start).toBeGreaterThan(0);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

describe('CommonJS', () => {
  it(`require() loads every entry on this Node (${process.version}) where it requires ES modules, and names import() where not`, async () => {
    const code = `for (const e of ${JSON.stringify(ENTRIES)}) console.log(e, Object.keys(require(e)).length > 0);`;
    const result = await commonJs(code);
    if (requiresEsm()) {
      expect(result.stderr).toBe('');
      expect(result.stdout.trim().split('\n')).toEqual(ENTRIES.map((e) => `${e} true`));
    } else {
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('ERR_REQUIRE_ESM');
    }
  });

  it('the docs say what works where, and their examples run: require() where Node has it, import() everywhere', async () => {
    for (const file of ['README.md', 'docs/library.md']) {
      const text = await readFile(join(ROOT, file), 'utf8');
      expect(text, file).toMatch(/ES modules? only|ESM only|only ES modules/i);
      expect(text, file).toContain("require('contacts-cli')");
      expect(text, file).toContain("await import('contacts-cli')");
      expect(text, file).toMatch(/20\.19/);
      expect(text, file).toMatch(/22\.12/);
    }
    const [withRequire, withImport] = await commonJsExamples();
    expect(withRequire).toContain("require('contacts-cli')");
    expect(withImport).toContain("await import('contacts-cli')");
    // Each example ends by printing what it loaded; ContactsClient is a class.
    const check = '\n;console.log(typeof ContactsClient);';
    if (requiresEsm()) expect((await commonJs(`${withRequire}${check}`)).stdout.trim()).toBe('function');
    // As on a Node without require(esm) (20.18, 22 before 22.12): this flag turns it off.
    const without = requiresEsm() ? ['--no-experimental-require-module'] : [];
    const refused = await commonJs(`${withRequire}${check}`, without);
    expect(refused.stderr).toContain('ERR_REQUIRE_ESM');
    const imported = await commonJs(`(async () => {\n${withImport}${check}\n})();`, without);
    expect(imported.stderr).toBe('');
    expect(imported.stdout.trim()).toBe('function');
  });
});
