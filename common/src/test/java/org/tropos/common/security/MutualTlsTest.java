package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tropos.common.conf.Configuration;
import org.tropos.common.util.SystemClock;

/** gRPC over mutual TLS with the cluster's certificates, as every daemon will speak it: who gets in, who does not. */
class MutualTlsTest {
  private static final String CLUSTER = "CID-tls";
  private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };
  private static final MethodDescriptor<byte[], byte[]> REGISTER = method("test.Datanodes");
  private static final MethodDescriptor<byte[], byte[]> UNLISTED = method("test.Unlisted");
  private static final MethodDescriptor<byte[], byte[]> OPEN = method("test.Open");

  private final X509Settings settings = X509Settings.from(Configuration.defaults());
  private final List<CertificateSubject> handled = new CopyOnWriteArrayList<>();
  /** The serial number of the certificate each call's TLS session showed. */
  private final List<java.math.BigInteger> shownSerials = new CopyOnWriteArrayList<>();
  private CertificateAuthority ca;
  private Server server;
  private final List<ManagedChannel> channels = new CopyOnWriteArrayList<>();

  @TempDir
  Path dir;

  private static MethodDescriptor<byte[], byte[]> method(String service) {
    return MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(service, "Call")).setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES).build();
  }

  private ServerServiceDefinition service(MethodDescriptor<byte[], byte[]> method) {
    return ServerServiceDefinition.builder(method.getServiceName()).addMethod(method,
        ServerCalls.asyncUnaryCall((request, response) -> {
          handled.add(PeerRoles.PEER.get());
          response.onNext(request);
          response.onCompleted();
        })).build();
  }

  private ServiceCertificates certificates(CertificateAuthority authority, ServiceRole role, String host)
      throws Exception {
    return ServiceCertificates.loadOrObtain(dir.resolve(role + "-" + host + "-" + System.nanoTime()),
        new CertificateSubject(role, host, CLUSTER), settings, authority.inProcess());
  }

  private ServiceCertificates.Identity identity(CertificateAuthority authority, ServiceRole role, String host)
      throws Exception {
    return certificates(authority, role, host).identity();
  }

  @BeforeEach
  void start() throws Exception {
    ca = CertificateAuthority.initialize(dir.resolve("ca"), settings, CLUSTER, SystemClock.INSTANCE);
    server = serve(certificates(ca, ServiceRole.SCM, "localhost"));
  }

  private Server serve(ServiceCertificates own) throws Exception {
    return NettyServerBuilder.forAddress(new InetSocketAddress("localhost", 0))
        .sslContext(TransportSecurity.mutual(own).serverContext())
        .addService(service(REGISTER)).addService(service(UNLISTED)).addService(service(OPEN))
        .intercept(PeerRoles.overTls(new PeerRoles.Admission(Map.of(REGISTER.getServiceName(),
            Set.of(ServiceRole.DATANODE)), Set.of(OPEN.getServiceName()), CLUSTER)))
        .intercept(new io.grpc.ServerInterceptor() {
          @Override
          public <Q, R> io.grpc.ServerCall.Listener<Q> interceptCall(io.grpc.ServerCall<Q, R> call,
              io.grpc.Metadata headers, io.grpc.ServerCallHandler<Q, R> next) {
            try {
              javax.net.ssl.SSLSession session = call.getAttributes().get(io.grpc.Grpc.TRANSPORT_ATTR_SSL_SESSION);
              shownSerials.add(((java.security.cert.X509Certificate) session.getPeerCertificates()[0])
                  .getSerialNumber());
            } catch (javax.net.ssl.SSLPeerUnverifiedException | RuntimeException e) {
              // no client certificate
            }
            return next.startCall(call, headers);
          }
        })
        .build().start();
  }

  @AfterEach
  void stop() throws Exception {
    channels.forEach(ManagedChannel::shutdownNow);
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
  }

  private byte[] call(MethodDescriptor<byte[], byte[]> method, UnaryOperator<NettyChannelBuilder> security) {
    ManagedChannel channel = security.apply(NettyChannelBuilder.forAddress("localhost", server.getPort())).build();
    channels.add(channel);
    return ClientCalls.blockingUnaryCall(channel, method, CallOptions.DEFAULT.withDeadlineAfter(20,
        TimeUnit.SECONDS), "hi".getBytes(StandardCharsets.US_ASCII));
  }

  private UnaryOperator<NettyChannelBuilder> as(ServiceCertificates certificates) throws Exception {
    var context = TransportSecurity.mutual(certificates).clientContext(ServiceRole.SCM);
    return b -> b.sslContext(context);
  }

  private static Status.Code refusal(Runnable call) {
    return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
  }

  @Test
  void aPeerOfAnAdmittedRoleIsServedAndItsHandlerKnowsWhoCalled() throws Exception {
    assertArrayEquals("hi".getBytes(StandardCharsets.US_ASCII), call(REGISTER, as(certificates(ca,
        ServiceRole.DATANODE, "dn1"))));
    assertEquals(List.of(new CertificateSubject(ServiceRole.DATANODE, "dn1", CLUSTER)), handled);
    System.out.println("TLS provider: " + TlsContexts.provider());
  }

  @Test
  void anotherRoleOrAnUnlistedServiceIsDeniedBeforeAnyHandlerRuns() throws Exception {
    UnaryOperator<NettyChannelBuilder> om = as(certificates(ca, ServiceRole.OM, "om1"));
    UnaryOperator<NettyChannelBuilder> datanode = as(certificates(ca, ServiceRole.DATANODE, "dn1"));
    assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> call(REGISTER, om)));
    assertEquals(Status.Code.PERMISSION_DENIED, refusal(() -> call(UNLISTED, datanode)));
    assertEquals(List.of(), handled);
  }

  @Test
  void noTlsNoCertificateOrACertificateOfAnotherCaNeverReachesAHandler() throws Exception {
    refusal(() -> call(REGISTER, NettyChannelBuilder::usePlaintext));

    ServiceCertificates.Identity dn = identity(ca, ServiceRole.DATANODE, "dn1");
    var anonymous = io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts.forClient().trustManager(dn.root()).build();
    refusal(() -> call(REGISTER, b -> b.sslContext(anonymous)));

    CertificateAuthority stranger = CertificateAuthority.initialize(dir.resolve("stranger"), settings, CLUSTER,
        SystemClock.INSTANCE);
    ServiceCertificates.Identity forged = identity(stranger, ServiceRole.DATANODE, "dn1");
    var trustsOurs = io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts.forClient()
        .keyManager(forged.key(), forged.certificate()).trustManager(ca.root()).build();
    refusal(() -> call(REGISTER, b -> b.sslContext(trustsOurs)));
    assertEquals(List.of(), handled);
  }

  @Test
  void anOpenServiceTakesACallerWithoutCertificateButNotWithoutTls() throws Exception {
    var anonymous = TransportSecurity.trusting(ca.root()).clientContext(ServiceRole.SCM);
    assertArrayEquals("hi".getBytes(StandardCharsets.US_ASCII), call(OPEN, b -> b.sslContext(anonymous)));
    assertEquals(Status.Code.UNAUTHENTICATED, refusal(() -> call(REGISTER, b -> b.sslContext(anonymous))));
    refusal(() -> call(OPEN, NettyChannelBuilder::usePlaintext));
  }

  @Test
  void aClientTrustsOnlyAServerOfTheRoleItCalls() throws Exception {
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server = serve(certificates(ca, ServiceRole.DATANODE, "localhost"));
    UnaryOperator<NettyChannelBuilder> datanode = as(certificates(ca, ServiceRole.DATANODE, "dn1"));
    assertEquals(Status.Code.UNAVAILABLE, refusal(() -> call(REGISTER, datanode)), "a datanode posing as SCM");
    assertEquals(List.of(), handled);
  }

  @Test
  void aRenewedCertificateIsShownFromTheNextFullHandshakeOn() throws Exception {
    ServiceCertificates dn = certificates(ca, ServiceRole.DATANODE, "dn1");
    UnaryOperator<NettyChannelBuilder> datanode = as(dn);
    call(REGISTER, datanode);
    java.math.BigInteger before = dn.identity().certificate().getSerialNumber();
    dn.renew(ca.inProcess());
    // A new server: a session the client could resume would carry the certificate of its first handshake.
    server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    server = serve(certificates(ca, ServiceRole.SCM, "localhost"));
    call(REGISTER, datanode);
    assertEquals(2, handled.size());
    assertEquals(List.of(before, dn.identity().certificate().getSerialNumber()), shownSerials);
  }
}
