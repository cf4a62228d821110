package org.tropos.common.rpc;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.IOException;
import org.tropos.common.security.ServiceRole;
import org.tropos.common.security.UserCredential;

/** Adds the user's credential to each call to one server; a call for which none can be made fails UNAUTHENTICATED. */
final class CredentialSending {
  private CredentialSending() {
  }

  static ClientInterceptor to(UserCredential credential, ServiceRole role, String host) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
        return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            try {
              credential.attach(headers, role, host);
            } catch (IOException e) {
              throw Status.UNAUTHENTICATED.withDescription(e.getMessage()).withCause(e).asRuntimeException();
            }
            super.start(listener, headers);
          }
        };
      }
    };
  }
}
