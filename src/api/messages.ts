// The service's own words: the messages production answers with. The mock says them and the
// client recognises the ones that name a more precise error than the status alone, so both
// read them from here.

/** The `message` of every success envelope. */
export const SUCCESS = 'Success';
/** 401, whatever was wrong with the key: production does not say which part. */
export const UNAUTHORIZED = 'Unauthorized access';
/** 404 for every route of an agent that does not exist (not the contact or attribute). */
export const CHATBOT_NOT_FOUND = 'Chatbot not found';
export const CONTACT_NOT_FOUND = 'Contact not found';
export const ATTRIBUTE_NOT_FOUND = 'Custom attribute not found';
/** 400 for a body that fails validation; `issues` say where. */
export const INVALID_BODY = 'Invalid request body';
/** 400 for a query that fails validation (the list's `page`, `per_page`). */
export const INVALID_PARAMETERS = 'Invalid request parameters';
/** 400 for a page past the last one, when there are contacts. */
export const PAGE_OUT_OF_RANGE = 'Page number out of range';
/** 400: the write would create a contact past the agent's quota. */
export const MAX_CONTACTS_REACHED = 'Maximum contacts limit reached';
export const MAX_ATTRIBUTES_REACHED = 'Maximum custom attributes limit reached';
/** 409: the email belongs to another contact of the agent (compared case-insensitively). */
export const EMAIL_EXISTS = 'Email already exists';
/** 409: a PATCH would give a contact the external_id of another. */
export const EXTERNAL_ID_EXISTS = 'External ID already exists';
export const ATTRIBUTE_EXISTS = 'Custom attribute already exists';
export const RATE_LIMIT_EXCEEDED = 'Rate limit exceeded';
/** An issue's message for a field the service does not know (strict mode, or a schema that refuses it). */
export const UNKNOWN_FIELD = 'Unknown field';
