package org.tropos.datanode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.tropos.common.io.VersionedProperties;

/**
 * The datanode's identity, kept in {@code datanode.id} (layout 1: {@code datanodeUuid}, {@code clusterId}):
 * created on first start and reused ever after, so SCM recognises the node across restarts and address changes.
 * The cluster id is empty until the first registration.
 *
 * @param uuid the datanode's id
 * @param clusterId the cluster it belongs to, or empty
 */
public record DatanodeId(UUID uuid, String clusterId) {
  public static final String FILE_NAME = "datanode.id";
  private static final int LAYOUT_VERSION = 1;

  public static DatanodeId loadOrCreate(Path dir) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    Optional<Map<String, String>> stored = VersionedProperties.read(file, LAYOUT_VERSION);
    if (stored.isPresent()) {
      String uuid = stored.get().get("datanodeUuid");
      if (uuid == null) {
        throw new IOException(file + " has no datanodeUuid");
      }
      return new DatanodeId(UUID.fromString(uuid), stored.get().getOrDefault("clusterId", ""));
    }
    DatanodeId created = new DatanodeId(UUID.randomUUID(), "");
    created.save(dir);
    return created;
  }

  public DatanodeId withClusterId(String newClusterId, Path dir) throws IOException {
    DatanodeId updated = new DatanodeId(uuid, newClusterId);
    updated.save(dir);
    return updated;
  }

  private void save(Path dir) throws IOException {
    Map<String, String> values = new HashMap<>();
    values.put("datanodeUuid", uuid.toString());
    values.put("clusterId", clusterId);
    VersionedProperties.write(dir.resolve(FILE_NAME), LAYOUT_VERSION, values, "Tropos datanode identity");
  }
}
