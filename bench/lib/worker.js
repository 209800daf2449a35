// Talking to a benchmark's forked child (the mock in its own process): one question, one answer.

/** Sends `msg` to `worker` and resolves with its first message of `type`. */
export function ask(worker, msg, type) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m.type === type) {
        worker.off('message', on);
        resolve(m);
      }
    };
    worker.on('message', on);
    worker.send(msg);
  });
}
