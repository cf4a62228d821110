package org.tropos.common.util;

import java.util.UUID;
import org.tropos.proto.hdds.Uuid;

/** Conversions between {@link UUID} and its wire form. */
public final class Uuids {
  private Uuids() {
  }

  public static Uuid toProto(UUID id) {
    return Uuid.newBuilder().setMostSignificantBits(id.getMostSignificantBits())
        .setLeastSignificantBits(id.getLeastSignificantBits()).build();
  }

  public static UUID fromProto(Uuid id) {
    return new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
  }
}
