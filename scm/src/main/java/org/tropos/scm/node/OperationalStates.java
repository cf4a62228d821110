package org.tropos.scm.node;

import static org.tropos.proto.hdds.NodeOperationalState.DECOMMISSIONED;
import static org.tropos.proto.hdds.NodeOperationalState.DECOMMISSIONING;
import static org.tropos.proto.hdds.NodeOperationalState.ENTERING_MAINTENANCE;
import static org.tropos.proto.hdds.NodeOperationalState.IN_MAINTENANCE;
import static org.tropos.proto.hdds.NodeOperationalState.IN_SERVICE;

import org.tropos.common.util.TransitionTable;
import org.tropos.proto.hdds.NodeOperationalState;

/**
 * The moves of a datanode's operational state (what an administrator made of it; its health is separate).
 *
 * <pre>
 * IN_SERVICE ──decommission──▶ DECOMMISSIONING ──(replicas elsewhere)──▶ DECOMMISSIONED
 * IN_SERVICE ──maintenance──▶ ENTERING_MAINTENANCE ──(replicas safe)──▶ IN_MAINTENANCE
 * ENTERING_MAINTENANCE, IN_MAINTENANCE ──decommission──▶ DECOMMISSIONING
 * any ──recommission, or the end of maintenance──▶ IN_SERVICE
 * </pre>
 *
 * A node leaving service never skips its drain (IN_SERVICE straight to DECOMMISSIONED or IN_MAINTENANCE would
 * count its replicas out before copies exist), and a DECOMMISSIONED node goes back to service before maintenance.
 */
final class OperationalStates {
  static final TransitionTable<NodeOperationalState> TABLE = TransitionTable.of(NodeOperationalState.class,
          "datanode")
      .allow(IN_SERVICE, DECOMMISSIONING, ENTERING_MAINTENANCE)
      .allow(DECOMMISSIONING, DECOMMISSIONED, IN_SERVICE)
      .allow(DECOMMISSIONED, IN_SERVICE)
      .allow(ENTERING_MAINTENANCE, IN_MAINTENANCE, DECOMMISSIONING, IN_SERVICE)
      .allow(IN_MAINTENANCE, DECOMMISSIONING, IN_SERVICE)
      .build();

  private OperationalStates() {
  }
}
