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
  private final ArrayDeque<String> events = new ArrayDeque<>();

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
    long millis = clock.millis();
    events.addLast(millis / 1000 + "." + String.format("%03d", millis % 1000) + " s: " + event);
  }

  /** The events kept, oldest first, one per line, each after {@code indent}. */
  public String lines(String indent) {
    return indent + String.join("\n" + indent, events);
  }
}
