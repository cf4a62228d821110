package org.tropos.datanode.scm;

import java.util.List;
import java.util.function.Supplier;
import org.tropos.proto.hdds.ContainerReport;
import org.tropos.proto.hdds.NodeReport;
import org.tropos.proto.hdds.PipelineReport;
import org.tropos.proto.scm.DeleteBlocksAck;

/**
 * Where each heartbeat's reports come from: the node's storage, the Raft groups it hosts, its container replicas,
 * the deletions it carried out.
 *
 * @param node volumes and RaftLog directories
 * @param pipelines the Raft groups hosted
 * @param containers the container replicas held
 * @param deletions deletions carried out since the last heartbeat; taken, so a failed heartbeat loses them
 */
public record HeartbeatReports(Supplier<NodeReport> node, Supplier<List<PipelineReport>> pipelines,
    Supplier<List<ContainerReport>> containers, Supplier<List<DeleteBlocksAck>> deletions) {
}
