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

  private final X509Settings settings = X509Settings.from(Configuration.defaults());
  private final List<CertificateSubject> handled = new CopyOnWriteArrayList<>();
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

  private ServiceCertificates.Identity identity(CertificateAuthority authority, ServiceRole role, String host)
      throws Exception {
    return ServiceCertificates.loadOrObtain(dir.resolve(role + "-" + host + "-" + System.nanoTime()),
        new CertificateSubject(role, host, CLUSTER), settings, authority.inProcess()).identity();
  }

  @BeforeEach
  void start() throws Exception {
    ca = CertificateAuthority.initialize(dir.resolve("ca"), settings, CLUSTER, SystemClock.INSTANCE);
    server = NettyServerBuilder.forAddress(new InetSocketAddress("localhost", 0))
        .sslContext(TlsContexts.server(identity(ca, ServiceRole.SCM, "localhost")))
        .addService(service(REGISTER)).addService(service(UNLISTED))
        .intercept(new PeerRoles(Map.of(REGISTER.getServiceName(), Set.of(ServiceRole.DATANODE)), CLUSTER))
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

  private UnaryOperator<NettyChannelBuilder> as(ServiceCertificates.Identity identity) throws Exception {
    var context = TlsContexts.client(identity);
    return b -> b.sslContext(context);
  }

  private static Status.Code refusal(Runnable call) {
    return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
  }

  @Test
  void aPeerOfAnAdmittedRoleIsServedAndItsHandlerKnowsWhoCalled() throws Exception {
    assertArrayEquals("hi".getBytes(StandardCharsets.US_ASCII), call(REGISTER, as(identity(ca, ServiceRole.DATANODE,
        "dn1"))));
    assertEquals(List.of(new CertificateSubject(ServiceRole.DATANODE, "dn1", CLUSTER)), handled);
    System.out.println("TLS provider: " + TlsContexts.provider());
  }

  @Test
  void anotherRoleOrAnUnlistedServiceIsDeniedBeforeAnyHandlerRuns() throws Exception {
    UnaryOperator<NettyChannelBuilder> om = as(identity(ca, ServiceRole.OM, "om1"));
    UnaryOperator<NettyChannelBuilder> datanode = as(identity(ca, ServiceRole.DATANODE, "dn1"));
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
}
