// Types of the undici files `undici.ts` loads by path (undici declares only its index).
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentClass: typeof Agent;
  export default AgentClass;
}
declare module 'undici/lib/core/errors.js' {
  import type { errors } from 'undici';

  const undiciErrors: typeof errors;
  export default undiciErrors;
}
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';

  const request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
