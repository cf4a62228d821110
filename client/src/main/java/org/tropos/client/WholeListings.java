package org.tropos.client;

import java.util.ArrayList;
import java.util.List;
import org.tropos.client.internal.OmClient;
import org.tropos.common.rpc.OmException;
import org.tropos.proto.om.BucketInfo;
import org.tropos.proto.om.ListBucketsResponse;
import org.tropos.proto.om.ListVolumesResponse;
import org.tropos.proto.om.VolumeInfo;

/**
 * Volumes and buckets listed whole, page after page: the OM answers a page at a time so that no answer grows with
 * the cluster, while {@link TroposClient}'s callers want them all (there are few of them, unlike keys).
 */
final class WholeListings {
  private WholeListings() {
  }

  /** Every volume whose name starts with {@code prefix}. */
  static List<VolumeInfo> volumes(OmClient om, String prefix) throws OmException {
    List<VolumeInfo> all = new ArrayList<>();
    ListVolumesResponse page;
    String after = "";
    do {
      page = om.listVolumes(prefix, after, 0);
      all.addAll(page.getVolumesList());
      after = all.isEmpty() ? "" : all.get(all.size() - 1).getName();
    } while (page.getTruncated());
    return all;
  }

  /** Every bucket of {@code volume} whose name starts with {@code prefix}. */
  static List<BucketInfo> buckets(OmClient om, String volume, String prefix) throws OmException {
    List<BucketInfo> all = new ArrayList<>();
    ListBucketsResponse page;
    String after = "";
    do {
      page = om.listBuckets(volume, prefix, after, 0);
      all.addAll(page.getBucketsList());
      after = all.isEmpty() ? "" : all.get(all.size() - 1).getName();
    } while (page.getTruncated());
    return all;
  }
}
