package org.tropos.client;

import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.AttachS3PoliciesRequest;
import org.tropos.proto.om.ChangeS3GroupRequest;
import org.tropos.proto.om.S3Group;
import org.tropos.proto.om.S3Policy;
import org.tropos.proto.om.S3User;

/** The OM's S3 identity policies, users and groups (om_identity.proto); changes are its administrators'. */
public interface S3Identities {
  /** Creates or replaces policy {@code name}. */
  void putPolicy(String name, String document) throws OmException;

  /** Deletes a policy nothing is attached to. */
  void deletePolicy(String name) throws OmException;

  /** Every policy, the built-in ones first. */
  List<S3Policy> policies() throws OmException;

  /** Attaches policies to (or with {@code detach}, detaches them from) a user or a group. */
  void attach(AttachS3PoliciesRequest request) throws OmException;

  /** Adds or removes members of a group, or deletes an empty one. */
  S3Group changeGroup(ChangeS3GroupRequest request) throws OmException;

  List<S3Group> groups() throws OmException;

  void setEnabled(String user, boolean enabled) throws OmException;

  /** Removes a user's secret, attachments and memberships. */
  void remove(String user) throws OmException;

  /** Every S3 user, or ({@code only} not empty) that one. */
  List<S3User> users(String only) throws OmException;
}
