// Build step: writes dist/openapi.json from the compiled contract so the package ships it.
import { readFile, writeFile } from 'node:fs/promises';
import { buildOpenApiDocument } from '../dist/api/openapi.js';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
const doc = buildOpenApiDocument(pkg.version);
await writeFile(new URL('../dist/openapi.json', import.meta.url), `${JSON.stringify(doc, null, 2)}\n`);
