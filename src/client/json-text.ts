// JSON already serialised, sent as is: a caller that had to serialise a body to size it (the
// importer fills requests up to the body limit) need not pay for serialising it twice.

export class JsonText {
  constructor(readonly text: string) {}
}
