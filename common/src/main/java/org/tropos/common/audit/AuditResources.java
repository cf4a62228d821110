package org.tropos.common.audit;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.PipelineId;

/**
 * What a request names, for its audit line: its fields that identify a resource (volume, bucket, key, path,
 * versions, uploads, S3 users, groups and policies, datanodes, pipelines by id, containers), and those of the
 * messages it carries that name one (a bucket or volume to create, an ACL call's object, the open key of a commit,
 * an S3 policy). Data and secrets are never shown.
 */
public final class AuditResources {
  private static final Set<String> NAMING = Set.of("volume", "bucket", "key", "name", "path", "to_volume",
      "to_bucket", "to_key", "source_volume", "source_bucket", "source_key", "version_id", "source_version_id",
      "upload_id", "access_id", "node_id", "hosts", "container_id", "prefix", "type", "factor", "user", "group",
      "policies", "add_members", "remove_members");
  private static final List<String> CARRIED = List.of("volume", "bucket", "object", "open", "id", "policy");

  private AuditResources() {
  }

  public static String of(Message request) {
    StringJoiner named = new StringJoiner(", ", "{", "}");
    collect(request, named, true);
    return named.toString();
  }

  private static void collect(Message message, StringJoiner named, boolean top) {
    for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
      if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        if (!field.isRepeated() && message.hasField(field) && message.getField(field) instanceof PipelineId id) {
          named.add("pipeline=" + Uuids.fromProto(id.getId()));
        } else if (top && CARRIED.contains(field.getName()) && !field.isRepeated() && message.hasField(field)) {
          collect((Message) message.getField(field), named, false);
        }
      } else if (NAMING.contains(field.getName()) && (field.isRepeated() ? message.getRepeatedFieldCount(field) > 0
          : message.hasField(field))) {
        named.add(field.getName() + "=" + message.getField(field));
      }
    }
  }
}
