package org.tropos.common.rpc;

import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.tropos.common.security.AuthenticatedUser;
import org.tropos.common.security.Authentication;
import org.tropos.common.security.AuthenticationException;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.CredentialHeaders;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.UserAuthenticator;

/**
 * Who makes a call. With security off, Tropos authenticates as Hadoop's "simple" mode does: a client names its
 * user with every call ({@code HADOOP_USER_NAME}, else the login name) and servers take the name as given. In a
 * secure cluster the name comes from the caller's certificate, Kerberos ticket or delegation token
 * ({@link #receivingAuthenticated}). What the user may do is the server's decision alone (its own
 * {@code ozone.administrators}), never the client's.
 */
public final class Callers {
  private static final Metadata.Key<byte[]> USER = Metadata.Key.of("tropos-user-bin",
      Metadata.BINARY_BYTE_MARSHALLER);
  private static final Context.Key<byte[]> CURRENT = Context.key("tropos-user");
  private static final Context.Key<Authentication> HOW = Context.key("tropos-authentication");
  private static final Context.Key<byte[]> TOKEN = Context.key("tropos-delegation-token");
  private static final AuthenticatedUser NOBODY = new AuthenticatedUser("", Authentication.SIMPLE);

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

  /** How the server knows the user of the call being served ({@link Authentication#SIMPLE}: it does not). */
  public static Authentication authentication() {
    Authentication how = HOW.get();
    return how == null ? Authentication.SIMPLE : how;
  }

  /**
   * The delegation token that proved the caller ({@link Authentication#TOKEN}), as sent: its signature is checked
   * on arrival, whether it is still live where the state is (the OM, once it knows it may serve).
   */
  public static byte[] delegationToken() {
    byte[] token = TOKEN.get();
    return token == null ? new byte[0] : token;
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
   * The same in a secure cluster, where the user is proven and the header naming one is ignored. A caller with a
   * certificate ({@link PeerRoles#PEER}) is the user a user's certificate names; the S3 gateway is the S3 user whose
   * request signature its call carries and {@code s3Requests} checks ({@link S3RequestProofs}), nobody when it
   * carries none (its own calls, an anonymous request's); any other daemon is nobody (""). A caller without one is
   * the user its Kerberos ticket or delegation token proves ({@code users}), and nobody when it carries none. A call
   * with a credential or proof that proves nobody is refused.
   */
  static ServerInterceptor receivingAuthenticated(UserAuthenticator users, UserAuthenticator s3Requests) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        CertificateSubject peer = PeerRoles.PEER.get();
        AuthenticatedUser user;
        try {
          if (peer != null) {
            user = certified(peer, headers, s3Requests);
          } else if (!CredentialHeaders.carriesOne(headers)) {
            user = NOBODY;
          } else {
            Optional<AuthenticatedUser> proven = users.authenticate(headers);
            if (proven.isEmpty()) {
              return refuse(call, "this server takes no such credential: show a certificate of the cluster");
            }
            user = proven.get();
          }
        } catch (AuthenticationException e) {
          return refuse(call, e.getMessage());
        }
        Context context = Context.current().withValues(CURRENT, user.name().getBytes(StandardCharsets.UTF_8),
            HOW, user.how(), TOKEN, user.how() == Authentication.TOKEN ? headers.get(CredentialHeaders.TOKEN) : null);
        return Contexts.interceptCall(context, call, headers, next);
      }
    };
  }

  private static <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, String why) {
    call.close(Status.UNAUTHENTICATED.withDescription(why), new Metadata());
    return new ServerCall.Listener<>() {
    };
  }

  /** The user a call with certificate {@code peer} and {@code headers} acts as. */
  private static AuthenticatedUser certified(CertificateSubject peer, Metadata headers, UserAuthenticator s3Requests)
      throws AuthenticationException {
    return switch (peer.role()) {
      case USER -> new AuthenticatedUser(peer.name(), Authentication.CERTIFICATE);
      case S3G -> headers.containsKey(S3RequestProofs.HEADER) ? s3Requests.authenticate(headers).orElseThrow(
          () -> new AuthenticationException("this server takes no S3 request's proof")) : NOBODY;
      default -> NOBODY;
    };
  }
}
