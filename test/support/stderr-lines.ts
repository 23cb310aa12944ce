/** What the server writes to stderr while `work` runs (its log lines), kept off the test's output. */
export const stderrDuring = async <T>(work: () => Promise<T>): Promise<{ result: T; written: string[] }> => {
  const written: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    return { result: await work(), written };
  } finally {
    spy.mockRestore();
  }
};
