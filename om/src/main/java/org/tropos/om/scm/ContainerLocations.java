package org.tropos.om.scm;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.tropos.common.util.Clock;
import org.tropos.proto.scm.ContainerInfo;

/**
 * Where containers are, as SCM last said, kept for a short while: without it every key lookup would ask SCM (a
 * round trip per GET). Replicas move rarely (re-replication, decommission), and a reader whose listed replicas all
 * fail asks SCM itself before it gives up, so a location up to {@code ttl} old costs at most a slower read.
 * Kept per reader host, since SCM orders the replicas nearest to it first.
 *
 * <p>Thread-safe; a size past {@code maxEntries} empties the cache (it refills from SCM).
 */
final class ContainerLocations {
  private record Key(long containerId, String clientHost) {
  }

  private record Known(ContainerInfo info, long fetchedAtMillis) {
  }

  private final Map<Key, Known> known = new ConcurrentHashMap<>();
  private final Clock clock;
  private final long ttlMillis;
  private final int maxEntries;

  ContainerLocations(Clock clock, Duration ttl, int maxEntries) {
    this.clock = clock;
    this.ttlMillis = ttl.toMillis();
    this.maxEntries = maxEntries;
  }

  /** The containers {@code ids} SCM knows, in that order: those fetched within the TTL from here, the rest from SCM. */
  <E extends Exception> List<ContainerInfo> get(List<Long> ids, String clientHost, Source<E> scm) throws E {
    long now = clock.monotonicMillis();
    Map<Long, ContainerInfo> found = new HashMap<>();
    List<Long> missing = new ArrayList<>();
    for (long id : ids) {
      Known k = known.get(new Key(id, clientHost));
      if (k != null && now - k.fetchedAtMillis() < ttlMillis) {
        found.put(id, k.info());
      } else {
        missing.add(id);
      }
    }
    if (missing.isEmpty()) {
      return ids.stream().map(found::get).toList();
    }
    List<ContainerInfo> fetched = scm.fetch(missing, clientHost);
    if (known.size() + fetched.size() > maxEntries) {
      known.clear();
    }
    for (ContainerInfo info : fetched) {
      found.put(info.getContainerId(), info);
      known.put(new Key(info.getContainerId(), clientHost), new Known(info, now));
    }
    return ids.stream().map(found::get).filter(Objects::nonNull).toList();
  }

  /** Fetches the locations SCM has now, failing with {@code E}. */
  @FunctionalInterface
  interface Source<E extends Exception> {
    List<ContainerInfo> fetch(List<Long> ids, String clientHost) throws E;
  }
}
