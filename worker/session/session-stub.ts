/**
 * The session Durable Object's stub by session id, in one step. `getAgentByName` makes an extra RPC
 * (`__unsafe_ensureInitialized`) before the caller's own; the agents SDK (0.32) already starts an
 * Agent's lifecycle on entry to any async public method called over native RPC, and SessionAgent
 * never reads the routed `name`, so that round trip bought nothing on the request path.
 */
import type { SessionAgent } from "./session-agent";

/** Where sessions live. */
export type SessionNamespace = DurableObjectNamespace<SessionAgent>;

/** The stub of session `id`'s Durable Object (no call is made until the caller's first RPC). */
export function sessionStub(ns: SessionNamespace, id: string): DurableObjectStub<SessionAgent> {
  return ns.get(ns.idFromName(id));
}
