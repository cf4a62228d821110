package org.tropos.client.hadoop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockLocation;
import org.tropos.common.net.DatanodeAddresses;
import org.tropos.proto.hdds.DatanodeDetails;
import org.tropos.proto.hdds.Port;
import org.tropos.proto.hdds.PortName;
import org.tropos.proto.om.KeyBlock;
import org.tropos.proto.om.LookupKeyResponse;
import org.tropos.proto.scm.ContainerInfo;

/** Where a file's bytes are: one Hadoop block location per Tropos block, with its replicas' hosts and racks. */
final class BlockLocations {
  private BlockLocations() {
  }

  /** The blocks overlapping {@code [start, start + length)}, replicas nearest to this host first. */
  static BlockLocation[] of(LookupKeyResponse lookup, long start, long length) {
    Map<Long, List<DatanodeDetails>> replicas = new HashMap<>();
    for (ContainerInfo c : lookup.getContainersList()) {
      replicas.put(c.getContainerId(), c.getReplicasList());
    }
    List<BlockLocation> result = new ArrayList<>();
    long offset = 0;
    for (KeyBlock block : lookup.getKey().getBlocksList()) {
      long end = offset + block.getLength();
      if (end > start && offset < start + length) {
        result.add(location(replicas.getOrDefault(block.getBlockId().getContainerId(), List.of()), offset,
            block.getLength()));
      }
      offset = end;
    }
    return result.toArray(new BlockLocation[0]);
  }

  private static BlockLocation location(List<DatanodeDetails> nodes, long offset, long length) {
    String[] hosts = new String[nodes.size()];
    String[] names = new String[nodes.size()];
    String[] racks = new String[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      DatanodeDetails node = nodes.get(i);
      String host = DatanodeAddresses.host(node);
      hosts[i] = host;
      names[i] = host + ":" + node.getPortsList().stream().filter(p -> p.getName() == PortName.READ)
          .mapToInt(Port::getValue).findFirst().orElse(0);
      String rack = node.getNetworkLocation().isEmpty() ? "/default-rack" : node.getNetworkLocation();
      racks[i] = rack + "/" + names[i];
    }
    return new BlockLocation(names, hosts, racks, offset, length);
  }
}
