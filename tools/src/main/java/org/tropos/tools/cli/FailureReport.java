package org.tropos.tools.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.ScmResult;

/**
 * What {@code tropos} prints when a command fails: one line naming what failed and, when a service could not be
 * reached, why and what to try; then the exit code of {@link ExitCodes}. The stack trace is printed only on
 * request ({@code --verbose}): an operator reads the line, a developer the trace.
 */
public final class FailureReport {
  /** How {@code RpcErrors} words a call that never reached its service (a transport failure). */
  private static final String UNREACHABLE = "cannot reach ";

  private FailureReport() {
  }

  /** The one line that reports {@code e}, starting {@code "tropos: "}. */
  public static String line(Exception e) {
    return "tropos: " + String.join("; ", describe(e).strip().split("\\s*\\R\\s*"));
  }

  private static String describe(Exception e) {
    if (e instanceof OmException o) {
      return o.result() == OmResult.OM_NOT_READY ? notReady(o, "tropos om") : o.getMessage() + " (" + o.result() + ")";
    }
    if (e instanceof ScmException s) {
      return s.result() == ScmResult.SCM_NOT_READY ? notReady(s, "tropos scm")
          : s.getMessage() + " (" + s.result() + ")";
    }
    if (e instanceof StatusRuntimeException s && unreachable(s.getStatus())) {
      return UNREACHABLE + "the service (" + transportReason(s.getStatus()) + ")";
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  /**
   * A service that did not serve the call. When it could not be reached at all, gRPC's words ("UNAVAILABLE: io
   * exception") give way to the transport's ("connection refused"), and the line says how to start the service.
   */
  private static String notReady(Exception e, String startCommand) {
    String message = e.getMessage();
    if (!message.contains(UNREACHABLE)) {
      return message;
    }
    StatusRuntimeException transport = find(e, StatusRuntimeException.class);
    if (transport != null) {
      message = message.replace("(" + grpcWords(transport.getStatus()) + ")",
          "(" + transportReason(transport.getStatus()) + ")");
    }
    return message + whatToTry(startCommand);
  }

  /** What the line of a service that could not be reached says to try, after its reason. */
  public static String whatToTry(String startCommand) {
    return "; is it running? ('" + startCommand + "', or 'tropos local' for a whole cluster)";
  }

  /** The exit code for {@code e}: a service that could not be reached or is not ready is 4, not 1. */
  public static int exitCode(Exception e) {
    if (e instanceof ConfigException) {
      return ExitCodes.BAD_CONFIG;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ScmException s) {
        return s.result() == ScmResult.SCM_NOT_READY ? ExitCodes.UNAVAILABLE : ExitCodes.FAILED;
      }
      if (t instanceof OmException o) {
        return o.result() == OmResult.OM_NOT_READY ? ExitCodes.UNAVAILABLE : ExitCodes.FAILED;
      }
      if (t instanceof StatusRuntimeException s) {
        return unreachable(s.getStatus()) ? ExitCodes.UNAVAILABLE : ExitCodes.FAILED;
      }
      if (t instanceof ConnectException || t instanceof UnknownHostException) {
        return ExitCodes.UNAVAILABLE;
      }
    }
    return ExitCodes.FAILED;
  }

  /**
   * Prints the stack trace of {@code e} and its causes, one frame a line (what {@code --verbose} asks for), written
   * out here: main code may not hand a trace to the JDK's printer, which elsewhere means an exception not handled.
   */
  public static void printTrace(Throwable e, PrintWriter err) {
    String heading = "";
    for (Throwable t = e; t != null; t = t.getCause()) {
      err.println(heading + t);
      for (StackTraceElement frame : t.getStackTrace()) {
        err.println("\tat " + frame);
      }
      heading = "Caused by: ";
    }
    err.flush();
  }

  private static boolean unreachable(Status status) {
    return status.getCode() == Status.Code.UNAVAILABLE || status.getCode() == Status.Code.DEADLINE_EXCEEDED;
  }

  /** The status as {@code RpcErrors} writes it into a message. */
  private static String grpcWords(Status status) {
    return status.getDescription() == null ? status.getCode().toString()
        : status.getCode() + ": " + status.getDescription();
  }

  /** Why the transport failed, in the words an operator searches for. */
  private static String transportReason(Status status) {
    if (status.getCode() == Status.Code.DEADLINE_EXCEEDED) {
      return "no answer in time";
    }
    Throwable cause = status.getCause();
    if (find(cause, NoRouteToHostException.class) != null) {
      return "no route to host";
    }
    if (find(cause, UnknownHostException.class) != null) {
      return "unknown host";
    }
    ConnectException refused = find(cause, ConnectException.class);
    if (refused != null) {
      String text = String.valueOf(refused.getMessage()).toLowerCase(Locale.ROOT);
      return text.contains("refused") ? "connection refused" : refused.getMessage();
    }
    if (find(cause, SocketTimeoutException.class) != null) {
      return "connection timed out";
    }
    return grpcWords(status);
  }

  private static <T extends Throwable> T find(Throwable e, Class<T> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
