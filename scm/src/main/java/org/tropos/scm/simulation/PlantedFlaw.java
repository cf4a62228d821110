package org.tropos.scm.simulation;

/** A bug planted in the simulated datanodes on purpose, to show that the simulation finds it and replays it. */
public enum PlantedFlaw {
  NONE,
  /** A CloseContainer entry closes a replica a check found damaged (UNHEALTHY → CLOSED). */
  CLOSES_DAMAGED
}
