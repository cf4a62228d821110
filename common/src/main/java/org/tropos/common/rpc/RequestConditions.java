package org.tropos.common.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tropos.common.security.CertificateSubject;
import org.tropos.common.security.PeerRoles;
import org.tropos.common.security.ServiceRole;
import org.tropos.proto.om.S3ConditionValues;
import org.tropos.proto.om.S3RequestConditions;

/**
 * What the request behind a call shows to the conditions of bucket policies ({@code aws:SourceIp},
 * {@code aws:SecureTransport}, {@code s3:x-amz-acl}, ...). The S3 gateway's calls carry those of the S3 request they
 * serve ({@link S3RequestProofs#acting}); they are believed from the gateway alone (its certificate, or any caller in
 * a cluster without TLS, where callers name themselves anyway). Any other call shows its own: the address it came
 * from, and whether it came over TLS.
 */
public final class RequestConditions {
  static final Metadata.Key<byte[]> HEADER = Metadata.Key.of("tropos-s3-conditions-bin",
      Metadata.BINARY_BYTE_MARSHALLER);
  static final Context.Key<byte[]> SENDING = Context.key("tropos-s3-conditions");
  private static final Context.Key<Received> RECEIVED = Context.key("tropos-s3-conditions-received");
  private static final String SOURCE_IP = "aws:SourceIp";
  private static final String SECURE_TRANSPORT = "aws:SecureTransport";

  /** What arrived with a call; turned into conditions only when a policy asks (most buckets have none). */
  private record Received(byte[] fromGateway, SocketAddress remote, boolean tls) {
  }

  private RequestConditions() {
  }

  /** The conditions of the request being served (none outside a call). */
  public static Map<String, List<String>> current() {
    Received received = RECEIVED.get();
    Map<String, List<String>> conditions = new HashMap<>();
    if (received == null) {
      return conditions;
    }
    if (received.fromGateway() != null) {
      try {
        for (S3ConditionValues values : S3RequestConditions.parseFrom(received.fromGateway()).getValuesList()) {
          conditions.put(values.getKey(), values.getValuesList());
        }
        return conditions;
      } catch (InvalidProtocolBufferException e) {
        // A gateway sent what it cannot have meant: the call then shows what the network shows of it.
        conditions.clear();
      }
    }
    if (received.remote() instanceof InetSocketAddress inet && inet.getAddress() != null) {
      conditions.put(SOURCE_IP, List.of(inet.getAddress().getHostAddress()));
    }
    conditions.put(SECURE_TRANSPORT, List.of(Boolean.toString(received.tls())));
    return conditions;
  }

  /** The conditions of an S3 request as the gateway sends them. */
  public static S3RequestConditions of(Map<String, List<String>> conditions) {
    S3RequestConditions.Builder message = S3RequestConditions.newBuilder();
    conditions.forEach((key, values) -> message.addValues(S3ConditionValues.newBuilder().setKey(key)
        .addAllValues(values)));
    return message.build();
  }

  /** Sends the conditions the calling thread carries, if any, with each call (added to channels to an OM only). */
  static ClientInterceptor sending() {
    return HeaderInterceptors.sendingFromContext(SENDING, HEADER);
  }

  /** Keeps what a call shows of its request for {@link #current}; {@code tls}: whether the server uses TLS. */
  static ServerInterceptor receiving(boolean tls) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        CertificateSubject peer = PeerRoles.PEER.get();
        boolean gateway = !tls || peer != null && peer.role() == ServiceRole.S3G;
        Received received = new Received(gateway ? headers.get(HEADER) : null,
            call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR), tls);
        return Contexts.interceptCall(Context.current().withValue(RECEIVED, received), call, headers, next);
      }
    };
  }
}
