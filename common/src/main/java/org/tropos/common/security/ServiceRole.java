package org.tropos.common.security;

import java.util.Locale;
import java.util.Optional;

/**
 * What a certificate lets its holder act as: the role is the subject's OU, so each service admits only its callers.
 * A daemon's certificate names its host; a {@link #USER}'s names the user, who acts as that user alone.
 */
public enum ServiceRole {
  SCM, OM, DATANODE, S3G, USER;

  /** The name the subject carries, e.g. {@code datanode}. */
  public String subjectName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<ServiceRole> ofSubjectName(String name) {
    for (ServiceRole role : values()) {
      if (role.subjectName().equals(name)) {
        return Optional.of(role);
      }
    }
    return Optional.empty();
  }
}
