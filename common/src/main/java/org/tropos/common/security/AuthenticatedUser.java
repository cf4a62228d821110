package org.tropos.common.security;

/** The user a call's credential proves, and which kind of credential proved it. */
public record AuthenticatedUser(String name, Authentication how) {
}
