package org.tropos.common.http;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.util.Map;

/** A JSON answer of a status port, for the web console. */
@FunctionalInterface
public interface JsonRoute {
  /**
   * @param rest the path after the route's prefix ({@code "/42"} for {@code /api/containers/42})
   * @param query the query's parameters
   * @return JSON text
   * @throws NotFound when {@code rest} names nothing (404)
   * @throws IllegalArgumentException when the query's parameters are not valid (400)
   * @throws Exception when the answer cannot be had now (503, the message in the body)
   */
  String answer(String rest, Map<String, String> query) throws Exception;

  /** A protobuf message as JSON, fields with default values included (a console shows zeros). */
  static String json(MessageOrBuilder message) {
    try {
      return JsonFormat.printer().includingDefaultValueFields().print(message);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("cannot print " + message.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /** The request names nothing that exists. */
  final class NotFound extends Exception {
    public NotFound(String message) {
      super(message);
    }
  }
}
