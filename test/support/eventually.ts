/** Waits for a condition the server reaches asynchronously (a clean-up, a delivery). */
export const eventually = async (check: () => Promise<boolean> | boolean, timeoutMs = 10000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};
