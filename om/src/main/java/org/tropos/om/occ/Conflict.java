package org.tropos.om.occ;

/** A transaction's read set no longer holds: it is re-run, not reported (no stack trace: it is routine). */
public final class Conflict extends Exception {
  private static final long serialVersionUID = 1L;

  Conflict(String what) {
    super(what, null, false, false);
  }
}
