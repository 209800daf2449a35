// The client's side of contract revision 2: production's precise errors have their own classes,
// every error keeps the service's request id, and a record is read as tolerantly as the
// contract allows.
import { describe, expect, it } from 'vitest';
import { toExit } from '../../src/cli/exit.js';
import { ExitCode } from '../../src/cli/exit-codes.js';
import { ContactsClient } from '../../src/client/client.js';
import {
  AgentNotFoundError,
  BadRequestError,
  ContactLimitError,
  NotFoundError,
  ResponseValidationError,
} from '../../src/client/errors.js';
import { AGENT, startTestMock, TEST_KEY } from '../helpers/mock.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

const client = (baseUrl: string, agentId = AGENT) =>
  new ContactsClient({ baseUrl, apiKey: TEST_KEY, agentId, maxRetries: 0 });

describe('errors production names precisely', () => {
  it('an unknown agent is an AgentNotFoundError; a missing contact stays a plain NotFoundError', async () => {
    const mock = await startTestMock({ agents: [AGENT] });
    const ghost = client(mock.url, 'ghost');
    const agentError = await ghost.contacts.list().catch((e: unknown) => e);
    expect(agentError).toBeInstanceOf(AgentNotFoundError);
    expect(agentError).toBeInstanceOf(NotFoundError);
    expect((agentError as AgentNotFoundError).requestId).toMatch(/^req_\w+$/);
    const known = client(mock.url);
    const contactError = await known.contacts.get('nobody').catch((e: unknown) => e);
    expect(contactError).toBeInstanceOf(NotFoundError);
    expect(contactError).not.toBeInstanceOf(AgentNotFoundError);
    await Promise.all([ghost.close(), known.close()]);

    const plan = toExit(agentError);
    expect(plan.code).toBe(ExitCode.NOT_FOUND);
    expect(plan.lines.join('\n')).toMatch(/hint: Check the agent id .*no such agent/);
  });

  it('the quota is a ContactLimitError (a BadRequestError), for one contact and for a batch', async () => {
    const mock = await startTestMock({ maxContacts: 1 });
    const c = client(mock.url);
    await c.contacts.upsert({ external_id: 'first' });
    const one = await c.contacts.upsert({ external_id: 'second' }).catch((e: unknown) => e);
    expect(one).toBeInstanceOf(ContactLimitError);
    expect(one).toBeInstanceOf(BadRequestError);
    const batch = await c.contacts
      .upsertMany([{ external_id: 'first', name: 'x' }, { external_id: 'third' }])
      .catch((e: unknown) => e);
    expect(batch).toBeInstanceOf(ContactLimitError);
    expect(mock.store.contacts(AGENT).map((x) => [x.external_id, x.name])).toEqual([['first', null]]);
    // Another 400 is not the quota.
    const invalid = await c.contacts.upsert({ external_id: 'first', email: 'nope' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect(invalid).not.toBeInstanceOf(ContactLimitError);
    await c.close();

    const plan = toExit(one);
    expect(plan.code).toBe(ExitCode.USAGE);
    expect(plan.lines.join('\n')).toMatch(/Maximum contacts limit reached \(HTTP 400, request req_\w+\)/);
    expect(plan.lines.join('\n')).toMatch(/hint: The agent holds as many contacts as its plan allows/);
  });
});

describe('request ids', () => {
  it('a 2xx answer that breaks the contract keeps its request id, and the CLI shows it', async () => {
    const server = await startScriptedServer([
      {
        status: 200,
        body: { message: 'Success', data: { id: 1 } },
        headers: { 'x-request-id': 'req_broken1' },
      },
    ]);
    const c = client(server.url);
    const error = await c.contacts.get('x').catch((e: unknown) => e);
    await c.close();
    await server.close();
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).requestId).toBe('req_broken1');
    const plan = toExit(error, { debug: true });
    expect(plan.lines[0]).toMatch(/\(HTTP 200, request req_broken1\)/);
    expect(plan.lines).toContain('request id: req_broken1');
  });
});
