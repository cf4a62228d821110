package org.tropos.om.acl;

import org.tropos.proto.om.AclRight;

/**
 * Decides whether a caller holds a right on a volume, bucket or key. The OM asks before it serves every request
 * ({@code om.rpc.AccessChecks}); {@link NativeAuthorizer} decides from owners and stored ACLs, and an implementation
 * backed by a policy service (Ranger's role) can stand in its place.
 *
 * <p>Implementations are thread-safe and do not block on the network for long: every OM call waits on them.
 */
public interface Authorizer {
  boolean allows(Requester who, Resource on, AclRight right);
}
