package org.tropos.common.simulation;

import java.util.ArrayDeque;

/**
 * The last events of a simulated run, each stamped with the simulated time, for the report of a failing seed.
 *
 * <p>Not thread-safe: a run is one thread.
 */
public final class Trace {
  private final int kept;
  private final SimulatedClock clock;
  /** Stamped as they come, written out only for a failure: most runs never print theirs. */
  private final ArrayDeque<Stamped> events = new ArrayDeque<>();

  private record Stamped(long millis, String event) {
  }

  /** Keeps the last {@code kept} events. */
  public Trace(int kept, SimulatedClock clock) {
    if (kept < 1) {
      throw new IllegalArgumentException("a trace keeps at least one event, not " + kept);
    }
    this.kept = kept;
    this.clock = clock;
  }

  public void add(String event) {
    if (events.size() == kept) {
      events.removeFirst();
    }
    events.addLast(new Stamped(clock.millis(), event));
  }

  /** The events kept, oldest first, one per line, each after {@code indent}. */
  public String lines(String indent) {
    StringBuilder out = new StringBuilder();
    for (Stamped e : events) {
      out.append(out.isEmpty() ? "" : "\n").append(indent).append(e.millis() / 1000).append('.')
          .append(Long.toString(1000 + e.millis() % 1000).substring(1)).append(" s: ").append(e.event());
    }
    return out.toString();
  }
}
