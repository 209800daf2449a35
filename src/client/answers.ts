// The service's answers, checked against the contract's JSON Schema (no zod loaded): each
// payload as the envelope `{"message": "Success", "data": ...}` or bare, as servers send it.
import { type AnswerCheck, checkJson, type JsonSchema } from '../api/answer-check.js';
import { ANSWER_SCHEMAS } from '../api/answer-schemas.js';
import type { ContactListResponse, ErrorBody } from '../api/envelope.js';
import type { AttributeDefinition, Contact } from '../api/records.js';

const listOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The payload of a success answer: the envelope's `data`, or the body itself when sent bare. */
function payload<T>(data: JsonSchema): AnswerCheck<T> {
  const envelope: JsonSchema = {
    type: 'object',
    properties: { message: { type: 'string' }, data },
    required: ['message', 'data'],
  };
  return (body) => {
    if (!isRecord(body) || !('data' in body)) return checkJson<T>(body, data);
    const wrapped = checkJson<{ data: T }>(body, envelope);
    if (wrapped.ok) return { ok: true, value: wrapped.value.data };
    const bare = checkJson<T>(body, data);
    return bare.ok ? bare : wrapped;
  };
}

const { Contact: contact, AttributeDefinition: definition } = ANSWER_SCHEMAS;

export const ANSWERS = {
  contact: payload<Contact>(contact),
  contacts: payload<Contact[]>(listOf(contact)),
  /** A page in its envelope, or a server's bare array of every contact. */
  list: ((body) =>
    Array.isArray(body)
      ? checkJson<Contact[]>(body, listOf(contact))
      : checkJson<ContactListResponse>(body, ANSWER_SCHEMAS.ContactListResponse)) as AnswerCheck<
    ContactListResponse | Contact[]
  >,
  definition: payload<AttributeDefinition>(definition),
  definitions: payload<AttributeDefinition[]>(listOf(definition)),
  errorBody: ((body) => checkJson<ErrorBody>(body, ANSWER_SCHEMAS.ErrorBody)) as AnswerCheck<ErrorBody>,
};
