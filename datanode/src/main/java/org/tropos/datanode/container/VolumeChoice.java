package org.tropos.datanode.container;

import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.tropos.common.rpc.DatanodeException;
import org.tropos.datanode.volume.StorageDirectory;
import org.tropos.proto.datanode.DatanodeResult;

/**
 * Which data volume a container lives on or goes to: a new or copied container to the healthy served volume with
 * the most free space; a write is refused while its volume has no more than its reserve available.
 *
 * <p>Thread-safe.
 */
final class VolumeChoice {
  private final String nodeName;
  private final List<StorageDirectory> volumes;
  private final Predicate<StorageDirectory> served;

  /** @param served whether the store serves a volume (it was healthy when the store opened) */
  VolumeChoice(String nodeName, List<StorageDirectory> volumes, Predicate<StorageDirectory> served) {
    this.nodeName = nodeName;
    this.volumes = List.copyOf(volumes);
    this.served = served;
  }

  /** The healthy served volume with the most free space: where a new or copied container goes. */
  StorageDirectory emptiest() throws DatanodeException {
    return volumes.stream().filter(v -> v.isHealthy() && served.test(v))
        .max(Comparator.comparingLong(v -> v.path().toFile().getUsableSpace()))
        .orElseThrow(() -> new DatanodeException(DatanodeResult.DISK_FULL, nodeName + " has no healthy volume"));
  }

  /** The volume {@code container} lives on. */
  StorageDirectory of(Container container) {
    return volumes.stream().filter(v -> container.dir().startsWith(v.path())).findFirst()
        .orElseThrow(() -> new IllegalStateException("container " + container.descriptor().getContainerId()
            + " lies outside every volume: " + container.dir()));
  }

  /**
   * Refuses a new write (DISK_FULL) when the volume holding {@code container}, or for a container not created yet
   * (null) the volume it would go to, has no more than its reserve available.
   */
  void checkRoom(Container container) throws DatanodeException {
    StorageDirectory volume = container == null ? emptiest() : of(container);
    if (!volume.hasRoom()) {
      throw new DatanodeException(DatanodeResult.DISK_FULL, nodeName + ": volume " + volume.path() + " has "
          + volume.availableBytes() + " bytes free, no more than the " + volume.reservedBytes()
          + " kept back for writes already accepted (hdds.datanode.volume.min.free.space)");
    }
  }
}
