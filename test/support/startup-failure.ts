import { startTestServer } from './test-server';

/** The message start-up stops with; a test failure when it starts. */
export const startupFailure = async (options: Parameters<typeof startTestServer>[0]): Promise<string> => {
  try {
    const server = await startTestServer(options);
    await server.stop();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected start-up to fail');
};
