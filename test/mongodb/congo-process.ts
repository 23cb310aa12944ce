import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A CongoDB server of a test's own (test/mongodb/congo-server.mjs), to stop and start again on the same port, with its data in `folder`. */
export interface CongoProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** `folder` '': in memory; `replicaSet`: presented as a one-member replica set of that name (see congo-server.mjs) */
export const startCongo = async (folder: string, port = 0, { replicaSet }: { replicaSet?: string } = {}): Promise<CongoProcess> => {
  const env = { ...process.env, ...(replicaSet ? { FOLIO_CONGO_REPLICA_SET: replicaSet } : {}) };
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'congo-server.mjs'), String(port), folder], { stdio: ['pipe', 'pipe', 'inherit'], env });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /mongodb:\/\/\S+/.exec(out);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`congo-server exited (${code}) before it listened`)));
  });
  return {
    // polled, not streamed: see global-setup.js
    url: `${url}/?serverMonitoringMode=poll`,
    port: Number(new URL(url).port),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
};
