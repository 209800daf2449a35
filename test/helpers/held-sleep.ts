// A stand-in for the mock's latency sleep (FaultOptions.sleep): a test holds a request in its
// latency, looks at what the mock did meanwhile, then lets it go, with no clock involved.

/** A sleep for the latency that holds until `release()`; `asked` is the first wait asked for. */
export function heldSleep() {
  let release = () => {};
  let asked: (ms: number) => void = () => {};
  const first = new Promise<number>((resolve) => {
    asked = resolve;
  });
  const sleep = (ms: number, signal: AbortSignal) => {
    asked(ms);
    return new Promise<void>((resolve, reject) => {
      release = resolve;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { sleep, asked: first, release: () => release() };
}
