package org.tropos.om.simulation;

import java.util.ArrayList;
import java.util.List;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.KeyInfo;
import org.tropos.proto.om.ListStatusResponse;

/** The simulated bucket as text: every directory and file under its root, and its usage. */
final class NamespaceDump {
  private static final int PAGE = 1000;

  private NamespaceDump() {
  }

  static List<String> of(SimulatedOm om) throws OmException {
    List<String> lines = new ArrayList<>();
    BucketInfo bucket = om.namespace.getBucket(NamespaceOp.VOLUME, NamespaceOp.BUCKET);
    lines.add("usage: " + bucket.getUsedBytes() + " bytes, " + bucket.getUsedNamespace() + " names");
    walk(om, "", lines);
    return lines;
  }

  private static void walk(SimulatedOm om, String dir, List<String> lines) throws OmException {
    String after = "";
    while (true) {
      ListStatusResponse page = om.namespace.listStatus(NamespaceOp.VOLUME, NamespaceOp.BUCKET, dir, after, PAGE);
      for (KeyInfo entry : page.getEntriesList()) {
        lines.add(NamespaceOp.entry(entry));
        if (entry.getDirectory()) {
          walk(om, entry.getName(), lines);
        }
        after = entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
      }
      if (!page.getTruncated() || page.getEntriesCount() == 0) {
        return;
      }
    }
  }
}
