package org.tropos.tools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.grpc.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.rpc.OmException;
import org.tropos.common.rpc.ScmException;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.scm.ScmResult;

/** The one line and the exit code of each kind of failure, without a service. */
class FailureReportTest {
  @Test
  void exitCodesFollowTheDocumentedTable() {
    assertEquals(ExitCodes.BAD_CONFIG, FailureReport.exitCode(new ConfigException("bad key")));
    assertEquals(ExitCodes.FAILED, FailureReport.exitCode(new OmException(OmResult.VOLUME_NOT_FOUND, "no v1")));
    assertEquals(ExitCodes.UNAVAILABLE, FailureReport.exitCode(new OmException(OmResult.OM_NOT_READY, "starting")));
    assertEquals(ExitCodes.UNAVAILABLE, FailureReport.exitCode(new ScmException(ScmResult.SCM_NOT_READY, "down")));
    assertEquals(ExitCodes.UNAVAILABLE, FailureReport.exitCode(Status.UNAVAILABLE.asRuntimeException()));
    assertEquals(ExitCodes.UNAVAILABLE, FailureReport.exitCode(Status.DEADLINE_EXCEEDED.asRuntimeException()));
    assertEquals(ExitCodes.FAILED, FailureReport.exitCode(Status.PERMISSION_DENIED.asRuntimeException()));
    assertEquals(ExitCodes.UNAVAILABLE, FailureReport.exitCode(new UncheckedIOException(new IOException("write",
        new OmException(OmResult.OM_NOT_READY, "down")))));
    assertEquals(ExitCodes.FAILED, FailureReport.exitCode(new IOException("disk full")));
  }

  @Test
  void operatingErrorsNameTheirResult() {
    assertEquals("tropos: volume v1 not found (VOLUME_NOT_FOUND)",
        FailureReport.line(new OmException(OmResult.VOLUME_NOT_FOUND, "volume v1 not found")));
  }

  @Test
  void aServiceThatAnsweredNotReadyGetsNoHowToStartHint() {
    assertEquals("tropos: the OM is starting",
        FailureReport.line(new OmException(OmResult.OM_NOT_READY, "the OM is starting")));
  }

  @Test
  void messagesOfSeveralLinesBecomeOne() {
    assertEquals("tropos: HTTP status code 404; missing content-type",
        FailureReport.line(new IllegalStateException("HTTP status code 404\nmissing content-type\n")));
    assertEquals("tropos: java.lang.NullPointerException", FailureReport.line(new NullPointerException()));
  }
}
