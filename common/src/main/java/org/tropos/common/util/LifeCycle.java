package org.tropos.common.util;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The checked lifecycle of a component: NEW → STARTING → RUNNING → CLOSING → CLOSED. A start that fails goes
 * straight to CLOSING so the owner can release what was built. Double start fails at once; close is idempotent.
 */
public final class LifeCycle {
  /** States, in order. */
  public enum State { NEW, STARTING, RUNNING, CLOSING, CLOSED }

  private final String name;
  private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

  public LifeCycle(String name) {
    this.name = name;
  }

  public State state() {
    return state.get();
  }

  public boolean isRunning() {
    return state.get() == State.RUNNING;
  }

  /** NEW → STARTING; anything else is a programmer error. */
  public void startBegins() {
    transition(State.NEW, State.STARTING);
  }

  /** STARTING → RUNNING. */
  public void startEnds() {
    transition(State.STARTING, State.RUNNING);
  }

  /** → CLOSING from any state before it; false if closing was already under way or done (close is idempotent). */
  public boolean closeBegins() {
    while (true) {
      State current = state.get();
      if (current == State.CLOSING || current == State.CLOSED) {
        return false;
      }
      if (state.compareAndSet(current, State.CLOSING)) {
        return true;
      }
    }
  }

  /** CLOSING → CLOSED. */
  public void closeEnds() {
    transition(State.CLOSING, State.CLOSED);
  }

  public void assertRunning() {
    Preconditions.assertTrue(isRunning(), "{} is {}, not RUNNING", name, state.get());
  }

  private void transition(State from, State to) {
    Preconditions.assertTrue(state.compareAndSet(from, to), "{}: cannot go from {} to {}", name, state.get(), to);
  }

  @Override
  public String toString() {
    return name + ":" + state.get();
  }
}
