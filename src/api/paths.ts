// Paths of the endpoints by what they address, derived from the operations table (for code and
// tests that want a path rather than an operation).
import { endpoint } from './operations.js';

export const paths = {
  contacts: (agentId: string) => endpoint('listContacts', { agentId }).path,
  contact: (agentId: string, id: string) => endpoint('getContact', { agentId, id }).path,
  attributes: (agentId: string) => endpoint('listAttributes', { agentId }).path,
  attribute: (agentId: string, name: string) => endpoint('updateAttribute', { agentId, name }).path,
} as const;
