package org.tropos.common.rpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/** Carries one value from a client to the server's handler: a header on every call, a context value there. */
final class HeaderInterceptors {
  private HeaderInterceptors() {
  }

  /** Sends {@code value} as header {@code key} on every call. */
  static <T> ClientInterceptor sending(Metadata.Key<T> key, T value) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(key, value);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  /** Sends the value {@code from} has in the calling thread's context, when it has one, as header {@code key}. */
  static <T> ClientInterceptor sendingFromContext(Context.Key<T> from, Metadata.Key<T> key) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        T value = from.get();
        return value == null ? next.newCall(method, options) : sending(key, value).interceptCall(method, options, next);
      }
    };
  }

  /** Makes header {@code key}, when a call has it, the value of {@code into} while the call is served. */
  static <T> ServerInterceptor receiving(Metadata.Key<T> key, Context.Key<T> into) {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
          ServerCallHandler<Q, R> next) {
        T value = headers.get(key);
        return value == null ? next.startCall(call, headers)
            : Contexts.interceptCall(Context.current().withValue(into, value), call, headers, next);
      }
    };
  }
}
