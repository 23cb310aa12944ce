import type { DocumentService } from '../documents/document-service';
import type { Scope } from '../documents/scope';
import { ROLE_CONTENT_TYPE } from './users-content-types';
import { readGrantRows } from './roles';
import { readWhenMoved } from '../common/read-when-moved';

/**
 * What each role grants, read from the store and kept in memory: every request asks it. A role
 * written on this instance is read again at once; one written by another instance on a shared
 * database is seen at the next poll. On the embedded store, whose workers see each other's commits
 * (`othersCommitted`), a request after another worker's commit has them read again before it is
 * authenticated (`current`): no poll there.
 */

export interface RoleGrants {
  /** the actions a role type grants; none for a type no role has */
  permissionsOf(roleType: string): ReadonlySet<string>;
  /** the type of the role with this documentId, if there is one */
  typeOf(roleId: string): string | undefined;
  /** every role type with what it grants */
  all(): ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Moves on whenever what any role grants changes, so answers kept per permission set (verdicts,
   * the response cache) are not given under grants that are gone.
   */
  generation(): number;
  /** reads the roles and grants again */
  reload(): Promise<void>;
  /** resolves once the grants are those of the store's last commit, where the store tells another process's (`othersCommitted`) */
  current(): Promise<void>;
  close(): void;
}

const PUBLISHED: Scope = { status: 'published' };
const NONE: ReadonlySet<string> = new Set();
/** how soon another instance's change to a role is seen */
const POLL_MS = 1000;

interface Snapshot {
  grants: Map<string, Set<string>>;
  types: Map<string, string>;
  /** the whole snapshot as text, to tell whether a reload changed anything */
  signature: string;
}

const readSnapshot = async (documents: DocumentService): Promise<Snapshot> => {
  const [roles, rows] = await Promise.all([documents.findMany(ROLE_CONTENT_TYPE, PUBLISHED), readGrantRows(documents)]);
  const types = new Map(roles.map((role) => [role.documentId as string, role.type as string]));
  const grants = new Map<string, Set<string>>([...types.values()].map((type) => [type, new Set<string>()]));
  for (const row of rows) {
    const type = typeof row.role === 'string' ? types.get(row.role) : undefined;
    if (type !== undefined) grants.get(type)!.add(row.action as string);
  }
  const signature = JSON.stringify([[...types].sort(), [...grants].map(([type, actions]) => [type, [...actions].sort()]).sort()]);
  return { grants, types, signature };
};

const NOTHING_TO_READ = Promise.resolve();

/**
 * `shared`: whether other instances may change roles (a shared database): only then are they polled.
 * `othersCommitted`: the store's count of other processes' commits seen (Store.othersCommitted).
 */
export const openRoleGrants = async (
  documents: DocumentService,
  { shared, othersCommitted }: { shared: boolean; othersCommitted?: () => number },
): Promise<RoleGrants> => {
  let snapshot = await readSnapshot(documents);
  let generation = 0;
  // a poll and a write's reload may overlap: the later read wins
  let asked = 0;
  let applied = 0;
  const reload = async () => {
    const ticket = ++asked;
    const next = await readSnapshot(documents);
    if (ticket < applied) return;
    applied = ticket;
    if (next.signature === snapshot.signature) return;
    snapshot = next;
    generation += 1;
  };
  // A database that does not answer for a while keeps the grants last read: requests meet the outage themselves.
  const timer = shared ? setInterval(() => void reload().catch(() => undefined), POLL_MS) : undefined;
  timer?.unref();
  // the read under way since another process committed: requests meanwhile wait for it too
  const caughtUp = othersCommitted ? readWhenMoved(othersCommitted, reload) : undefined;
  const current = (): Promise<void> => caughtUp?.() ?? NOTHING_TO_READ;
  return {
    current,
    permissionsOf: (roleType) => snapshot.grants.get(roleType) ?? NONE,
    typeOf: (roleId) => snapshot.types.get(roleId),
    all: () => snapshot.grants,
    generation: () => generation,
    reload,
    close: () => clearInterval(timer),
  };
};
