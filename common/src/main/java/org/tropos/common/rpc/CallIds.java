package org.tropos.common.rpc;

import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.ServerInterceptor;


/**
 * A call's id, the same on every attempt of it: a client that sends a call again after a failover names the same
 * id, so that a server which already applied it answers as it did the first time instead of applying it twice.
 * The id is the client's to make unique ({@code <client uuid>:<start time ms>:<sequence>}).
 */
public final class CallIds {
  private static final Metadata.Key<String> CALL = Metadata.Key.of("tropos-call-id", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<String> CURRENT = Context.key("tropos-call-id");

  private CallIds() {
  }

  /** The id of the call being served, or "" when its client sent none. */
  public static String current() {
    String id = CURRENT.get();
    return id == null ? "" : id;
  }

  /** Sends {@code id} with a call. */
  public static ClientInterceptor sending(String id) {
    return HeaderInterceptors.sending(CALL, id);
  }

  /** Makes the call's id {@link #current} while it is served. */
  static ServerInterceptor receiving() {
    return HeaderInterceptors.receiving(CALL, CURRENT);
  }
}
