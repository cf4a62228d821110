package org.tropos.datanode.container;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Threads;

/**
 * Looks for damaged replicas before a reader does. Every {@code metadataInterval} it checks every closed replica's
 * metadata; on each data volume a thread of its own reads every closed replica's blocks and verifies every
 * checksum, at most {@code bytesPerSecond} per volume, oldest-checked first, and pauses {@code dataInterval}
 * between passes. A damaged replica is marked UNHEALTHY: its next report tells SCM, which copies a healthy replica
 * elsewhere and then deletes this one. A replica found sound records the time (reported to SCM, shown by
 * {@code tropos admin container info}).
 */
public final class ContainerScrubber implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerScrubber.class);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private final String nodeName;
  private final ContainerStore store;
  private final ScrubConfig config;
  private final Clock clock;
  private final List<ScheduledExecutorService> schedulers = new ArrayList<>();
  private final Counter scanned;
  private final Counter damaged;
  private final AtomicLong lastPassEndSeconds = new AtomicLong();

  public ContainerScrubber(String nodeName, ContainerStore store, ScrubConfig config, Clock clock) {
    this(nodeName, store, config, clock, new CompositeMeterRegistry());
  }

  /** @param registry where the scrubber's progress is counted ({@code datanode_scrubber_*}) */
  public ContainerScrubber(String nodeName, ContainerStore store, ScrubConfig config, Clock clock,
      MeterRegistry registry) {
    this.nodeName = nodeName;
    this.store = store;
    this.config = config;
    this.clock = clock;
    this.scanned = Counter.builder("datanode.scrubber.containers.scanned").description("Replicas whose every"
        + " checksum the data scrubber verified.").register(registry);
    this.damaged = Counter.builder("datanode.scrubber.damaged").description("Replicas the scrubber found damaged"
        + " and marked UNHEALTHY.").register(registry);
    Gauge.builder("datanode.scrubber.last.pass.end", lastPassEndSeconds, AtomicLong::get).baseUnit("seconds")
        .description("When the data scrubber last finished a pass over a volume (seconds since the epoch; 0:"
            + " never).").register(registry);
  }

  public void start() {
    if (!config.enabled()) {
      LOG.info("{}: the container scrubber is off (hdds.container.scrub.enabled)", nodeName);
      return;
    }
    ScheduledExecutorService metadata = Threads.scheduler(nodeName + "-scrub-metadata");
    schedulers.add(metadata);
    Threads.everyPeriod(metadata, nodeName + ": metadata scrub", config.metadataInterval(),
        config.metadataInterval(), this::checkMetadata);
    for (Path volume : store.openVolumes()) {
      ScheduledExecutorService data = Threads.scheduler(nodeName + "-scrub-" + volume.getFileName());
      schedulers.add(data);
      Threads.everyPeriod(data, nodeName + ": data scrub of " + volume, config.dataInterval(),
          config.dataInterval(), () -> checkData(volume));
    }
  }

  /** One metadata pass over every volume. */
  public void checkMetadata() {
    ContainerScanner scanner = new ContainerScanner();
    for (Path volume : store.openVolumes()) {
      for (Container c : store.scrubbable(volume)) {
        try {
          scanner.checkMetadata(c).ifPresent(fault -> unhealthy(c, fault));
        } catch (IOException e) {
          unhealthy(c, "its metadata cannot be read: " + e.getMessage());
        }
      }
    }
  }

  /** One data pass over every volume (on this thread: for tests and on demand). */
  public void checkData() {
    store.openVolumes().forEach(this::checkData);
  }

  private void checkData(Path volume) {
    ContainerScanner scanner = new ContainerScanner();
    ByteRateThrottle throttle = new ByteRateThrottle(config.bytesPerSecond(), clock);
    List<Container> due = store.scrubbable(volume).stream()
        .sorted(Comparator.comparingLong(c -> c.descriptor().getDataScanEpochMs())).toList();
    for (Container c : due) {
      long now = clock.wallTime().toEpochMilli();
      if (c.descriptor().getDataScanEpochMs() > now - config.minGap().toMillis()) {
        continue;
      }
      try {
        Optional<String> fault = scanner.checkData(c, throttle);
        scanned.increment();
        if (fault.isPresent()) {
          unhealthy(c, fault.get());
        } else if (store.isCurrent(c)) {
          c.recordDataScan(clock.wallTime().toEpochMilli());
        }
      } catch (IOException e) {
        unhealthy(c, "its data cannot be read: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    lastPassEndSeconds.set(clock.wallTime().getEpochSecond());
  }

  /** Marks the replica UNHEALTHY, unless it was deleted or replaced meanwhile. */
  private void unhealthy(Container c, String fault) {
    long id = c.descriptor().getContainerId();
    if (!store.isCurrent(c)) {
      return;
    }
    damaged.increment();
    try {
      store.markUnhealthy(id, fault);
    } catch (DatanodeException e) {
      LOG.warn("{}: container {} is damaged ({}) but cannot be marked so: {}", nodeName, id, fault, e.getMessage());
    }
  }

  @Override
  public void close() {
    schedulers.forEach(s -> Threads.shutdown(s, STOP_TIMEOUT));
  }
}
