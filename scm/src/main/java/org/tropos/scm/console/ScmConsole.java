package org.tropos.scm.console;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.tropos.common.http.JsonRoute;
import org.tropos.common.http.StatusServer;
import org.tropos.common.net.HostPort;
import org.tropos.common.rpc.ScmChannel;
import org.tropos.common.rpc.ScmException;
import org.tropos.common.security.TransportSecurity;
import org.tropos.proto.hdds.ContainerState;
import org.tropos.proto.hdds.NodeState;
import org.tropos.proto.hdds.PipelineState;
import org.tropos.proto.scm.ContainerHealth;
import org.tropos.proto.scm.GetContainerRequest;
import org.tropos.proto.scm.GetReplicationReportRequest;
import org.tropos.proto.scm.GetScmInfoRequest;
import org.tropos.proto.scm.ListContainersRequest;
import org.tropos.proto.scm.ListDatanodesRequest;
import org.tropos.proto.scm.ListPipelinesRequest;
import org.tropos.proto.scm.ScmAdminServiceGrpc.ScmAdminServiceBlockingStub;
import org.tropos.proto.scm.ScmAdminServiceGrpc;
import org.tropos.proto.scm.ScmResult;

/**
 * The cluster's web console on SCM's status port: a static page ({@code /}, {@code /console.js},
 * {@code /console.css}) over JSON routes. SCM's own answers come through its admin service, exactly as
 * {@code tropos admin} sees them (in-process when SCM serves here; from the leader of an HA service otherwise);
 * the OM's and the S3 gateway's summaries are fetched from their status ports.
 */
public final class ScmConsole implements AutoCloseable {
  private static final int CONTAINERS_PER_PAGE = 500;
  private static final Duration PEER_TIMEOUT = Duration.ofSeconds(3);

  private final Supplier<List<HostPort>> scmAddresses;
  /** How SCM reaches its own admin service: its transport security once it has its identity. */
  private final Supplier<TransportSecurity> transport;
  private final HostPort om;
  private final HostPort gateway;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(PEER_TIMEOUT).build();
  private ScmChannel scm;
  private TransportSecurity scmTransport;

  /**
   * @param scmAddresses SCM's client service (each SCM's of an HA service), asked when first needed: a single
   *     SCM's port is known only once it serves
   * @param om the OM's status port
   * @param gateway the S3 gateway's status port
   */
  public ScmConsole(Supplier<List<HostPort>> scmAddresses, Supplier<TransportSecurity> transport, HostPort om,
      HostPort gateway) {
    this.scmAddresses = scmAddresses;
    this.transport = transport;
    this.om = om;
    this.gateway = gateway;
  }

  /**
   * Adds the console's pages and routes to SCM's status port (before it starts), guarded: in a secure cluster they
   * are served over HTTPS to a client certificate of the cluster alone.
   */
  public void addTo(StatusServer server) {
    server.page("/", "console/index.html", "text/html; charset=utf-8")
        .page("/console.js", "console/console.js", "text/javascript; charset=utf-8")
        .page("/console.css", "console/console.css", "text/css; charset=utf-8")
        .json("/api/scm", (rest, query) -> JsonRoute.json(call(stub -> stub.getScmInfo(
            GetScmInfoRequest.getDefaultInstance()))))
        .json("/api/datanodes", (rest, query) -> JsonRoute.json(call(stub -> stub.listDatanodes(
            ListDatanodesRequest.newBuilder().setState(NodeState.NODE_STATE_UNSPECIFIED).build()))))
        .json("/api/pipelines", (rest, query) -> JsonRoute.json(call(stub -> stub.listPipelines(
            ListPipelinesRequest.newBuilder().setState(PipelineState.PIPELINE_STATE_UNSPECIFIED).build()))))
        .json("/api/replication", (rest, query) -> JsonRoute.json(call(stub -> stub.getReplicationReport(
            GetReplicationReportRequest.getDefaultInstance()))))
        .json("/api/containers", this::containers)
        .json("/api/om", (rest, query) -> summary(om, "the OM"))
        .json("/api/s3", (rest, query) -> summary(gateway, "the S3 gateway"))
        .guard("/", "/console.js", "/console.css", "/api/");
  }

  /** {@code /api/containers?health=H&state=S&start=ID}, or one container with its replicas at {@code /ID}. */
  private String containers(String rest, Map<String, String> query) throws Exception {
    if (rest.length() > 1) {
      long id;
      try {
        id = Long.parseLong(rest.substring(1));
      } catch (NumberFormatException e) {
        throw new JsonRoute.NotFound("no container " + rest.substring(1));
      }
      try {
        return JsonRoute.json(call(stub -> stub.getContainer(GetContainerRequest.newBuilder().setContainerId(id)
            .build())));
      } catch (ScmException e) {
        if (e.result() == ScmResult.CONTAINER_NOT_FOUND) {
          throw new JsonRoute.NotFound(e.getMessage());
        }
        throw e;
      }
    }
    ListContainersRequest.Builder request = ListContainersRequest.newBuilder().setLimit(CONTAINERS_PER_PAGE)
        .setStartId(Long.parseLong(query.getOrDefault("start", "0")));
    if (query.containsKey("health")) {
      request.setHealth(ContainerHealth.valueOf(query.get("health")));
    }
    if (query.containsKey("state")) {
      request.setState(ContainerState.valueOf(query.get("state")));
    }
    return JsonRoute.json(call(stub -> stub.listContainers(request.build())));
  }

  private String summary(HostPort peer, String what) throws IOException, InterruptedException {
    URI uri = URI.create("http://" + peer + "/api/summary");
    HttpResponse<String> response;
    try {
      response = http.send(HttpRequest.newBuilder(uri).timeout(PEER_TIMEOUT).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IOException("cannot reach " + what + " at " + uri + ": " + e, e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(what + " at " + uri + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  private interface Call<T> {
    T on(ScmAdminServiceBlockingStub stub);
  }

  private <T> T call(Call<T> call) throws ScmException {
    ScmChannel channel = channel();
    return channel.call(() -> call.on(channel.stub(ScmAdminServiceGrpc::newBlockingStub)));
  }

  /** The channel to SCM's admin service; made again when SCM's transport changed (it obtained its identity). */
  private synchronized ScmChannel channel() {
    TransportSecurity now = transport.get();
    if (scm == null || now != scmTransport) {
      if (scm != null) {
        scm.close();
      }
      scm = new ScmChannel(scmAddresses.get(), now);
      scmTransport = now;
    }
    return scm;
  }

  @Override
  public synchronized void close() {
    if (scm != null) {
      scm.close();
    }
  }
}
