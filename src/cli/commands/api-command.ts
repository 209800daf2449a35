// `contacts api`: its declaration (arguments, options, help). The run, ./api.ts, is loaded
// only when the command runs.
import { Argument } from '@commander-js/extra-typings';
import { HTTP_METHODS } from '../../api/operations.js';
import { agentCommand, lazy, type OptionsOf, type Parent } from '../command.js';
import type { CliIo } from '../io.js';

/** `contacts api`; `ApiCommandOptions` is read from here. */
function declareApi(parent: Parent) {
  return agentCommand(parent, 'api')
    .description(
      'send any request to the API with the configured key, base URL and retries; print the answer',
    )
    .addArgument(new Argument('<method>', 'the HTTP method').choices(HTTP_METHODS))
    .argument('<path>', 'the path below the base URL, with any query; {agent} is filled with the agent')
    .option(
      '--data <json|@file>',
      'the request body (POST, PATCH, PUT, DELETE): JSON inline, @file.json, or @- for stdin',
    )
    .addHelpText(
      'after',
      `
The answer's JSON goes to stdout (-o ndjson: on one line), or its text as sent when it is not
JSON or holds numbers JSON would change (integers past 2^53). A path leading out of the base URL
(/../admin, %2e%2e) or holding a space is refused. POST and PATCH are retried only when the
connection was refused. An error status exits as every command does (3 key refused, 4 not
found, ...), with the service's message.

Examples:
  $ contacts api GET '/api/v1/chatbots/{agent}/contacts?per_page=10'
  $ contacts api POST '/api/v1/chatbots/{agent}/custom-attributes' --data @attribute.json
  $ contacts api DELETE /api/v1/chatbots/{agent}/contacts/u_42`,
    );
}

export type ApiCommandOptions = OptionsOf<typeof declareApi>;

export function apiCommand(program: Parent, io: CliIo): void {
  declareApi(program).action(lazy(io, async () => (await import('./api.js')).api));
}
