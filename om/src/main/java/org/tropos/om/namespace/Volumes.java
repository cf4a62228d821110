package org.tropos.om.namespace;

import java.util.Optional;
import org.tropos.common.rpc.OmException;
import org.tropos.om.acl.NativeAcls;
import org.tropos.om.db.OmDbKeys;
import org.tropos.om.db.OmTable;
import org.tropos.om.occ.Txn;
import org.tropos.proto.om.ListVolumesResponse;
import org.tropos.proto.om.OmResult;
import org.tropos.proto.om.VolumeInfo;
import org.tropos.proto.om.db.VolumeRow;

/** Volumes: create, read, list, delete when empty. */
final class Volumes {
  private Volumes() {
  }

  static VolumeRow require(Txn txn, String volume) throws OmException {
    Optional<VolumeRow> row = txn.get(OmTable.VOLUMES, OmDbKeys.volume(volume), VolumeRow.parser());
    return row.orElseThrow(() -> new OmException(OmResult.VOLUME_NOT_FOUND, "volume " + volume + " not found"));
  }

  static VolumeInfo create(Txn txn, VolumeInfo request) throws OmException {
    Names.checkVolume(request.getName());
    NativeAcls.checkAll(request.getAclsList());
    if (request.getQuotaBytes() < 0 || request.getQuotaNamespace() < 0) {
      throw new OmException(OmResult.INVALID_REQUEST, "quotas must be >= 0 (0 = none)");
    }
    byte[] key = OmDbKeys.volume(request.getName());
    if (txn.get(OmTable.VOLUMES, key, VolumeRow.parser()).isPresent()) {
      throw new OmException(OmResult.VOLUME_ALREADY_EXISTS, "volume " + request.getName() + " already exists");
    }
    VolumeRow row = VolumeRow.newBuilder().setObjectId(txn.newObjectId()).setName(request.getName())
        .setOwner(request.getOwner()).setQuotaBytes(request.getQuotaBytes())
        .setQuotaNamespace(request.getQuotaNamespace()).setCreationTimeMs(txn.nowMillis())
        .setModificationTimeMs(txn.nowMillis()).addAllAcls(request.getAclsList()).build();
    txn.put(OmTable.VOLUMES, key, row);
    return Infos.volume(row);
  }

  static VolumeInfo get(Txn txn, String volume) throws OmException {
    return Infos.volume(require(txn, volume));
  }

  static ListVolumesResponse list(Txn txn, String prefix, String startAfter, int max) throws OmException {
    Listing.Page<VolumeInfo> page = new Listing.Page<>(Listing.pageSize(max));
    byte[] p = OmDbKeys.volume(prefix);
    byte[] from = Listing.from(p, startAfter.isEmpty() ? null : OmDbKeys.volume(startAfter));
    txn.scan(OmTable.VOLUMES, p, from, VolumeRow.parser(), (k, row) -> page.add(Infos.volume(row)));
    return ListVolumesResponse.newBuilder().addAllVolumes(page.items()).setTruncated(page.truncated()).build();
  }

  static void delete(Txn txn, String volume) throws OmException {
    require(txn, volume);
    if (!txn.isEmpty(OmTable.BUCKETS, OmDbKeys.bucketsOf(volume))) {
      throw new OmException(OmResult.VOLUME_NOT_EMPTY, "volume " + volume + " is not empty: delete its buckets"
          + " first");
    }
    txn.delete(OmTable.VOLUMES, OmDbKeys.volume(volume));
  }
}
