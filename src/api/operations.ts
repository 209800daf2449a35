// The API's operations, listed once: method, path template, what each takes and answers. The
// client's paths, the mock's routing and 405s, the msw handlers and the OpenAPI document's
// `paths` are all derived from this list (as prism derives its routes from operations), so none
// of them can name an endpoint the others do not know.
import { ContactsError } from '../core/error.js';
import { API_PREFIX } from './limits.js';

/** The methods the API's operations use (PUT changes an attribute): what `contacts api` sends. */
export const HTTP_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A response of an operation; `schema` names a component of the contract registry. */
export interface OperationResponse {
  description: string;
  /** `data` of the success envelope: a component id, or `[id]` for a list of them. */
  data?: string | [string];
  /** The whole body is this component (the paginated list). */
  body?: string;
}

export interface Operation {
  id:
    | 'listContacts'
    | 'upsertContact'
    | 'getContact'
    | 'updateContact'
    | 'deleteContact'
    | 'listAttributes'
    | 'defineAttribute'
    | 'updateAttribute';
  method: HttpMethod;
  /** Under `API_PREFIX`, with `{param}` segments (OpenAPI's form). */
  path: string;
  summary: string;
  description?: string;
  /** Query parameters: the list's page and per_page. */
  query?: 'list';
  /** The request body: component ids, one of which the body must match. */
  body?: string[];
  success: Record<number, OperationResponse>;
  /** Errors beyond the ones every operation may answer (401, 404 agent, 413, 415, 429). */
  errors: Record<number, string>;
}

const CONTACTS = `${API_PREFIX}/chatbots/{agentId}/contacts`;
const CONTACT = `${CONTACTS}/{id}`;
const ATTRIBUTES = `${API_PREFIX}/chatbots/{agentId}/custom-attributes`;
const ATTRIBUTE = `${ATTRIBUTES}/{name}`;

export const OPERATIONS: readonly Operation[] = [
  {
    id: 'listContacts',
    method: 'GET',
    path: CONTACTS,
    summary: 'A page of contacts, oldest first',
    query: 'list',
    success: { 200: { description: 'A page of contacts, oldest first', body: 'ContactListResponse' } },
    errors: { 400: 'Invalid request parameters, or a page past the last' },
  },
  {
    id: 'upsertContact',
    method: 'POST',
    path: CONTACTS,
    summary: 'Create a contact, or update the one with the same external_id',
    description:
      'Upsert by external_id; a body with `users` is the batch form (1..1000, all or nothing). ' +
      'Unknown fields are dropped and named in `x-contacts-ignored`.',
    body: ['ContactInput', 'BatchUpsert'],
    success: {
      200: { description: 'Updated (single), or the batch in request order', data: 'Contact' },
      201: { description: 'Created', data: 'Contact' },
    },
    errors: {
      400: 'Invalid request body (issues name each field, users.N.field in a batch), or the contacts quota is reached',
      409: 'Email already exists (users.N.email in a batch)',
    },
  },
  {
    id: 'getContact',
    method: 'GET',
    path: CONTACT,
    summary: 'One contact, by external_id or the service id',
    success: { 200: { description: 'The contact', data: 'Contact' } },
    errors: { 404: 'Contact not found' },
  },
  {
    id: 'updateContact',
    method: 'PATCH',
    path: CONTACT,
    summary: 'Change some fields of a contact',
    description:
      'Partial update; also accepts the body wrapped as {"data": {...}}. Unknown fields are dropped.',
    body: ['ContactPatch'],
    success: { 200: { description: 'The updated contact', data: 'Contact' } },
    errors: {
      400: 'Invalid request body',
      404: 'Contact not found',
      409: 'Email or external_id already in use',
    },
  },
  {
    id: 'deleteContact',
    method: 'DELETE',
    path: CONTACT,
    summary: 'Delete a contact',
    success: { 200: { description: 'The deleted contact', data: 'Contact' } },
    errors: { 404: 'Contact not found' },
  },
  {
    id: 'listAttributes',
    method: 'GET',
    path: ATTRIBUTES,
    summary: 'The custom attribute definitions, archived ones too',
    success: { 200: { description: 'All definitions, archived ones too', data: ['AttributeDefinition'] } },
    errors: {},
  },
  {
    id: 'defineAttribute',
    method: 'POST',
    path: ATTRIBUTES,
    summary: 'Define a typed custom attribute',
    body: ['AttributeCreate'],
    success: { 200: { description: 'The definition', data: 'AttributeDefinition' } },
    errors: {
      400: 'Invalid definition, or Reserved field name used',
      409: 'Custom attribute already exists',
    },
  },
  {
    id: 'updateAttribute',
    method: 'PUT',
    path: ATTRIBUTE,
    summary: "Change an attribute's label or description, or archive it",
    body: ['AttributeUpdate'],
    success: { 200: { description: 'The definition', data: 'AttributeDefinition' } },
    errors: { 400: 'Invalid change (the type cannot change)', 404: 'Custom attribute not found' },
  },
];

export type OperationId = Operation['id'];

const byId = new Map(OPERATIONS.map((op) => [op.id, op]));

export function operation(id: OperationId): Operation {
  return byId.get(id)!;
}

/** The `{param}` names of a path template, in order. */
export function templateParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * Whether a path segment is `.` or `..`, `%2e` standing for a dot: URL parsers (WHATWG's, so
 * `fetch` and browsers), proxies and servers resolve such a segment away, so no percent-encoding
 * gets it to the service as a name: `DELETE .../contacts/..` reaches `.../chatbots/a1/`.
 */
export function isDotSegment(segment: string): boolean {
  // `%2e%2e` is the longest form.
  if (segment.length > 6) return false;
  const s = segment.toLowerCase().replaceAll('%2e', '.');
  return s === '.' || s === '..';
}

/**
 * The first dot segment of a path (its query and fragment aside), or undefined. A backslash
 * separates segments too, as a URL parser reads an http(s) path.
 */
export function dotSegmentOf(path: string): string | undefined {
  // A dot segment holds a dot or a `%2e`: most paths hold neither.
  if (!path.includes('.') && !path.includes('%')) return undefined;
  const end = path.search(/[?#]/);
  return (end < 0 ? path : path.slice(0, end)).split(/[/\\]/).find(isDotSegment);
}

/**
 * The first segment of a path (its query and fragment aside) that a server or proxy may read as
 * `.` or `..`, or undefined: a dot segment (`dotSegmentOf`), or one that becomes one once
 * percent-decoded (`%2e%2e%2f`, `..%5c`, `%252e%252e`: split at the `/` or `\` it then holds)
 * or cut at a `;` parameter (`..;`, which Tomcat and Jetty read as `..`). For a path written by
 * hand; the parameters `endpoint` encodes are held to `isDotSegment` alone, as the mock is.
 */
export function readAsDotSegmentOf(path: string): string | undefined {
  const end = path.search(/[?#]/);
  return (end < 0 ? path : path.slice(0, end))
    .split(/[/\\]/)
    .find((segment) => decodedParts(segment).some((part) => part === '.' || part === '..'));
}

/** A segment percent-decoded until it holds still (servers that decode twice exist), split and cut. */
function decodedParts(segment: string): string[] {
  let text = segment;
  for (let round = 0; round < 3; round++) {
    // Byte by byte: only the ASCII of dots and separators matters here.
    const next = text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    if (next === text) break;
    text = next;
  }
  return text.split(/[/\\]/).map((part) => part.split(';')[0]!);
}

/** What each path parameter is, for messages. */
const PARAM_NAMES: Record<string, string> = { agentId: 'agent id', id: 'contact id', name: 'attribute name' };

/**
 * A path parameter that cannot be sent: `.` or `..` (see `isDotSegment`). Thrown before any
 * request; `param` says which (`agentId`, `id`, `name`).
 */
export class PathParamError extends ContactsError {
  readonly param: string;
  readonly value: string;
  constructor(param: string, value: string, path: string) {
    const reached = new URL(path, 'http://host').pathname;
    super(
      `The ${PARAM_NAMES[param] ?? param} ${JSON.stringify(value)} cannot go in a request path: URL parsers, proxies and servers resolve a "." or ".." segment away, so ${path} would reach ${reached}`,
    );
    this.param = param;
    this.value = value;
  }
}

/** A request's method and path for an operation, its parameters percent-encoded; a PathParamError for `.` or `..`. */
export function endpoint(
  id: OperationId,
  params: Record<string, string>,
): { method: HttpMethod; path: string } {
  const op = operation(id);
  let dot: string | undefined;
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const segment = encodeURIComponent(params[name]!);
    if (dot === undefined && isDotSegment(segment)) dot = name;
    return segment;
  });
  if (dot !== undefined) throw new PathParamError(dot, params[dot]!, path);
  return { method: op.method, path };
}

/** The distinct path templates, each with the methods its operations take (for routing and 405s). */
export const PATH_TEMPLATES: readonly {
  template: string;
  methods: readonly HttpMethod[];
  params: string[];
}[] = [...new Set(OPERATIONS.map((op) => op.path))].map((template) => ({
  template,
  methods: OPERATIONS.filter((op) => op.path === template).map((op) => op.method),
  params: templateParams(template),
}));

export interface MatchedPath {
  template: string;
  /** Methods the path takes; a request with another one is 405. */
  methods: readonly HttpMethod[];
  /** The path's parameters, decoded. */
  params: Record<string, string>;
}

const MATCHERS = PATH_TEMPLATES.map((t) => ({
  ...t,
  // A parameter is one segment; a trailing slash is tolerated.
  re: new RegExp(
    `^${t.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}|\{\w+\}/g, '([^/]+)')}/?$`,
  ),
}));

/** Which path template a request path names (and its decoded parameters), or null. */
export function matchPath(pathname: string): MatchedPath | null {
  for (const m of MATCHERS) {
    const found = m.re.exec(pathname);
    if (!found) continue;
    const params: Record<string, string> = Object.create(null);
    for (let i = 0; i < m.params.length; i++) {
      const raw = found[i + 1]!;
      try {
        params[m.params[i]!] = raw.includes('%') ? decodeURIComponent(raw) : raw;
      } catch {
        return null;
      }
    }
    return { template: m.template, methods: m.methods, params };
  }
  return null;
}

/** The operation a method and path name, when the path exists and takes the method. */
export function operationFor(method: string, template: string): Operation | undefined {
  return OPERATIONS.find((op) => op.path === template && op.method === method);
}
