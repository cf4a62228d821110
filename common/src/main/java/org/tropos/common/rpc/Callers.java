package org.tropos.common.rpc;

import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.nio.charset.StandardCharsets;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;

/**
 * Who makes a call. With security off, Tropos authenticates as Hadoop's "simple" mode does: a client names its
 * user with every call ({@code HADOOP_USER_NAME}, else the login name) and servers take the name as given. In a
 * secure cluster the name comes from the caller's certificate ({@link #receivingAuthenticated}). What the user
 * may do is the server's decision alone (its own {@code ozone.administrators}), never the client's.
 */
public final class Callers {
  private static final Metadata.Key<byte[]> USER = Metadata.Key.of("tropos-user-bin",
      Metadata.BINARY_BYTE_MARSHALLER);
  private static final Context.Key<byte[]> CURRENT = Context.key("tropos-user");

  private Callers() {
  }

  /** This process's user: {@code HADOOP_USER_NAME} (environment, then system property), else the login name. */
  public static String localUser() {
    String user = System.getenv("HADOOP_USER_NAME");
    if (user == null || user.isBlank()) {
      user = System.getProperty("HADOOP_USER_NAME");
    }
    return user == null || user.isBlank() ? System.getProperty("user.name") : user.strip();
  }

  /** The user of the call being served, or "" when its client named none. */
  public static String current() {
    byte[] user = CURRENT.get();
    return user == null ? "" : new String(user, StandardCharsets.UTF_8);
  }

  /** Names {@code user} on every call through a channel. */
  public static ClientInterceptor sending(String user) {
    return HeaderInterceptors.sending(USER, user.getBytes(StandardCharsets.UTF_8));
  }

  /** Makes the caller's user, as its client names it, {@link #current} while a call is served. */
  static ServerInterceptor receiving() {
    return HeaderInterceptors.receiving(USER, CURRENT);
  }

  /**
   * The same in a secure cluster, where the user comes from the caller's certificate ({@link PeerRoles#PEER}): a
   * user's certificate names the user, whatever the header says; the S3 gateway names the S3 user it acts for
   * (until the OM checks S3 signatures itself); any other caller is nobody (""), whatever it names.
   */
  static ServerInterceptor receivingAuthenticated() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        byte[] user = authenticatedUser(PeerRoles.PEER.get(), headers.get(USER));
        return Contexts.interceptCall(Context.current().withValue(CURRENT, user), call, headers, next);
      }
    };
  }

  /** The user a call with certificate {@code peer} (null: none) and header {@code named} acts as. */
  private static byte[] authenticatedUser(CertificateSubject peer, byte[] named) {
    if (peer == null) {
      return new byte[0];
    }
    if (peer.role() == ServiceRole.USER) {
      return peer.name().getBytes(StandardCharsets.UTF_8);
    }
    return peer.role() == ServiceRole.S3G && named != null ? named : new byte[0];
  }
}
