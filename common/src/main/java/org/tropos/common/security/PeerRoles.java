package org.tropos.common.security;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.bouncycastle.asn1.x500.X500Name;

/**
 * Admits a call only from a peer whose TLS certificate names a role the called service accepts, in this cluster:
 * the datanode service takes datanodes, the block service OMs, and so on. The peer's subject is then known to the
 * handler ({@link #PEER}). A call without TLS, without a certificate, or from another role is refused before
 * any handler runs, except to the services open to callers without a certificate (a daemon's first certificate
 * request, administration), where a certificate, if shown, still names the peer, and to services that admit users
 * when the call carries a user's Kerberos ticket or delegation token instead ({@link CredentialHeaders}).
 *
 * <p>A call through a server's in-process twin has no TLS session: the calling channel of this JVM names its
 * daemon in a header ({@link #IN_PROCESS_PEER}), which only the twin reads, since only this JVM can reach it.
 */
public final class PeerRoles implements ServerInterceptor {
  /** The authenticated peer of the call being handled. */
  public static final Context.Key<CertificateSubject> PEER = Context.key("tropos-peer");
  /** The header in which a channel of this JVM names its daemon to a server's in-process twin. */
  public static final Metadata.Key<byte[]> IN_PROCESS_PEER = Metadata.Key.of("tropos-peer-bin",
      Metadata.BINARY_BYTE_MARSHALLER);

  /**
   * Who may call what on one server. Each rule names a gRPC service ({@code tropos.scm.ScmBlockService}) or one
   * method of it ({@code tropos.scm.ScmBlockService/GetContainers}); a method's rule wins over its service's.
   *
   * @param roles the roles each service or method admits; others none
   * @param open the services and methods that admit callers without a certificate too
   * @param clusterId the cluster whose certificates are admitted
   */
  public record Admission(Map<String, Set<ServiceRole>> roles, Set<String> open, String clusterId) {
    public Admission {
      roles = Map.copyOf(roles);
      open = Set.copyOf(open);
    }

    Set<ServiceRole> rolesFor(MethodDescriptor<?, ?> method) {
      Set<ServiceRole> forMethod = roles.get(method.getFullMethodName());
      return forMethod != null ? forMethod : roles.getOrDefault(method.getServiceName(), Set.of());
    }

    boolean isOpen(MethodDescriptor<?, ?> method) {
      return open.contains(method.getFullMethodName()) || open.contains(method.getServiceName())
          && !roles.containsKey(method.getFullMethodName());
    }
  }

  /** More than the daemons one JVM runs; only this JVM's channels reach an in-process twin. */
  private static final int NAMES_KEPT = 32;

  private final Admission admission;
  private final boolean inProcess;
  /** In-process names already parsed: every call carries its daemon's name; parsing it was 5 % of a secure GET. */
  private final Map<ByteBuffer, Optional<CertificateSubject>> namedBefore = new ConcurrentHashMap<>();

  private PeerRoles(Admission admission, boolean inProcess) {
    this.admission = admission;
    this.inProcess = inProcess;
  }

  /** Admits calls as the certificate of their TLS session says. */
  public static PeerRoles overTls(Admission admission) {
    return new PeerRoles(admission, false);
  }

  /** Admits calls of this JVM as their header {@link #IN_PROCESS_PEER} says. */
  public static PeerRoles inProcess(Admission admission) {
    return new PeerRoles(admission, true);
  }

  /** {@code self} as an in-process channel names it in {@link #IN_PROCESS_PEER}. */
  public static byte[] inProcessName(CertificateSubject self) {
    try {
      return self.toX500Name().getEncoded();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    MethodDescriptor<Q, R> method = call.getMethodDescriptor();
    Optional<CertificateSubject> peer = inProcess ? named(headers.get(IN_PROCESS_PEER))
        : CertificateSubject.ofPeer(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
    boolean open = admission.isOpen(method);
    if (peer.isEmpty()) {
      // A user's Kerberos ticket or delegation token is checked where the call is handled (Callers), off the
      // network's threads: a token is looked up in the OM's database.
      if (open || admission.rolesFor(method).contains(ServiceRole.USER) && CredentialHeaders.carriesOne(headers)) {
        return next.startCall(call, headers);
      }
      return refuse(call, Status.UNAUTHENTICATED.withDescription("a call to " + method.getFullMethodName()
          + " needs TLS with a certificate of the cluster"));
    }
    if (!open && !admission.rolesFor(method).contains(peer.get().role())
        || !peer.get().clusterId().equals(admission.clusterId())) {
      return refuse(call, Status.PERMISSION_DENIED.withDescription(method.getFullMethodName() + " does not admit "
          + peer.get().role().subjectName() + " " + peer.get().name() + " of cluster " + peer.get().clusterId()));
    }
    return Contexts.interceptCall(Context.current().withValue(PEER, peer.get()), call, headers, next);
  }

  private static <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, Status status) {
    call.close(status, new Metadata());
    return new ServerCall.Listener<>() {
    };
  }

  private Optional<CertificateSubject> named(byte[] header) {
    if (header == null) {
      return Optional.empty();
    }
    ByteBuffer key = ByteBuffer.wrap(header);
    Optional<CertificateSubject> known = namedBefore.get(key);
    if (known != null) {
      return known;
    }
    Optional<CertificateSubject> subject;
    try {
      subject = CertificateSubject.of(X500Name.getInstance(header));
    } catch (IllegalArgumentException e) {
      subject = Optional.empty();
    }
    if (namedBefore.size() < NAMES_KEPT) {
      namedBefore.put(ByteBuffer.wrap(header.clone()), subject);
    }
    return subject;
  }
}
