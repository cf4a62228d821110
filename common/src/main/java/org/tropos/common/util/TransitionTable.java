package org.tropos.common.util;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The legal moves between the states of one lifecycle (a container replica, a container in SCM, a pipeline, a
 * node's operational state): every move is checked against it in one place, and an illegal one fails loudly
 * instead of being recorded. A move to the state a thing is already in is always legal: commands are repeated (a
 * log entry replayed after a restart, a command resent).
 *
 * <p>Immutable and thread-safe.
 *
 * @param <S> the states
 */
public final class TransitionTable<S extends Enum<S>> {
  private final String subject;
  private final Map<S, Set<S>> next;

  private TransitionTable(String subject, Map<S, Set<S>> next) {
    this.subject = subject;
    this.next = next;
  }

  /** A table of {@code type}'s states, where nothing moves yet; {@code subject} names what moves, for errors. */
  public static <S extends Enum<S>> Builder<S> of(Class<S> type, String subject) {
    return new Builder<>(type, subject);
  }

  public boolean allows(S from, S to) {
    return from == to || next.get(from).contains(to);
  }

  /** The states {@code from} may move to, itself aside. */
  public Set<S> next(S from) {
    return next.get(from);
  }

  /**
   * Checks a move of the {@link #subject} {@code which}.
   *
   * @throws IllegalTransitionException if the table does not allow it
   */
  public void check(String which, S from, S to) {
    if (!allows(from, to)) {
      throw new IllegalTransitionException(subject + " " + which + " is " + from + " and cannot become " + to
          + (next.get(from).isEmpty() ? " (it is final)" : " (only " + next.get(from) + ")"));
    }
  }

  /** Builds a table by listing, per state, where it may go. */
  public static final class Builder<S extends Enum<S>> {
    private final String subject;
    private final Map<S, Set<S>> next;

    private Builder(Class<S> type, String subject) {
      this.subject = subject;
      this.next = new EnumMap<>(type);
      for (S state : type.getEnumConstants()) {
        next.put(state, EnumSet.noneOf(type));
      }
    }

    /** {@code from} may move to each of {@code to}. */
    @SafeVarargs
    public final Builder<S> allow(S from, S... to) {
      Collections.addAll(next.get(from), to);
      return this;
    }

    public TransitionTable<S> build() {
      Map<S, Set<S>> frozen = new EnumMap<>(next);
      frozen.replaceAll((state, targets) -> Collections.unmodifiableSet(EnumSet.copyOf(targets)));
      return new TransitionTable<>(subject, Collections.unmodifiableMap(frozen));
    }
  }

  /** A move the table does not allow: a programmer error, or a command that no longer fits what it names. */
  public static final class IllegalTransitionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    IllegalTransitionException(String message) {
      super(message);
    }
  }
}
