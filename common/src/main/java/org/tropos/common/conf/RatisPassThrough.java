package org.tropos.common.conf;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ratis settings given in Tropos's configuration, as Ozone passes them through: a key under a component's prefix
 * names a Ratis key, so {@code hdds.ratis.raft.server.log.appender.wait-time.min=5ms} sets
 * {@code raft.server.log.appender.wait-time.min} on the datanodes' Ratis servers, and
 * {@code ozone.om.ratis.raft.server.rpc.timeout.min=3s} that of the OMs' Raft group. They are applied after
 * Tropos's own choices, so an operator's value wins; Ratis checks them as it reads them.
 */
public final class RatisPassThrough {
  /** The datanodes' pipelines. */
  public static final String DATANODE = "hdds.ratis.";
  /** The Raft group of an OM HA service. */
  public static final String OM = "ozone.om.ratis.";
  /** The Raft group of an SCM HA service. */
  public static final String SCM = "ozone.scm.ratis.";
  /** Every component's prefix, in the order the reference documentation lists them. */
  public static final List<String> PREFIXES = List.of(DATANODE, OM, SCM);

  private RatisPassThrough() {
  }

  /** Whether {@code name} is passed through to Ratis rather than read by Tropos. */
  public static boolean isPassedThrough(String name) {
    return PREFIXES.stream().anyMatch(prefix -> name.startsWith(prefix + "raft."));
  }

  /** The Ratis keys and values set under {@code prefix}, the prefix taken off. */
  public static Map<String, String> of(Configuration conf, String prefix) {
    Map<String, String> ratis = new TreeMap<>();
    conf.explicitValues().forEach((name, value) -> {
      if (name.startsWith(prefix + "raft.")) {
        ratis.put(name.substring(prefix.length()), value);
      }
    });
    return ratis;
  }
}
