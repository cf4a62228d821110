package org.tropos.common.ec;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tropos.proto.hdds.EcReplicationConfig;

/**
 * An erasure-coded replication config, named as in Ozone: {@code rs-6-3-1024k} is Reed-Solomon over 6 data and 3
 * parity units with 1024 KiB cells. Replica index {@code i} (1-based, as in Ozone) holds unit {@code i - 1}: indexes
 * 1..data hold data cells, the rest parity.
 */
public record EcReplication(EcCodec codec, int data, int parity, int cellSize) {
  /** Most units a group may have: each is a datanode, and every stripe buffers one cell per unit. */
  public static final int MAX_UNITS = 32;
  /** Largest cell: a writer holds a whole stripe of cells in memory. */
  public static final int MAX_CELL_SIZE = 4 << 20;

  private static final Pattern NAME = Pattern.compile("(?i)([a-z]+)-(\\d{1,3})-(\\d{1,3})-(\\d{1,5})k");

  public EcReplication {
    if (data < 1 || parity < 1 || data + parity > MAX_UNITS) {
      throw new IllegalArgumentException(
          "an erasure-coded group needs at least one data and one parity unit, at most " + MAX_UNITS + " in all: "
              + data + " data, " + parity + " parity");
    }
    if (codec == EcCodec.XOR && parity != 1) {
      throw new IllegalArgumentException("xor has exactly one parity unit, not " + parity);
    }
    if (cellSize < 1024 || cellSize % 1024 != 0 || cellSize > MAX_CELL_SIZE) {
      throw new IllegalArgumentException("the cell size must be a whole number of KiB from 1k to "
          + (MAX_CELL_SIZE >> 10) + "k, not " + cellSize + " bytes");
    }
  }

  /** Parses a config name such as {@code rs-3-2-1024k}; the message of a bad one says what a good one looks like. */
  public static EcReplication parse(String name) {
    Matcher matcher = NAME.matcher(name.trim());
    if (!matcher.matches()) {
      throw new IllegalArgumentException("\"" + name
          + "\" is not an erasure-coding config: codec-data-parity-cellsize, e.g. rs-6-3-1024k, rs-3-2-1024k,"
          + " xor-2-1-1024k");
    }
    return new EcReplication(EcCodec.fromConfigName(matcher.group(1)), Integer.parseInt(matcher.group(2)),
        Integer.parseInt(matcher.group(3)), Integer.parseInt(matcher.group(4)) * 1024);
  }

  public static EcReplication fromProto(EcReplicationConfig proto) {
    return new EcReplication(EcCodec.fromConfigName(proto.getCodec()), proto.getData(), proto.getParity(),
        proto.getCellSize());
  }

  public EcReplicationConfig toProto() {
    return EcReplicationConfig.newBuilder().setCodec(codec.configName()).setData(data).setParity(parity)
        .setCellSize(cellSize).build();
  }

  /** Datanodes a group spans: one per unit. */
  public int units() {
    return data + parity;
  }

  /** Bytes of user data in one whole stripe. */
  public int stripeSize() {
    return data * cellSize;
  }

  public StripeLayout layout() {
    return new StripeLayout(this);
  }

  /** The config's name, e.g. {@code rs-6-3-1024k}. */
  @Override
  public String toString() {
    return codec.configName() + "-" + data + "-" + parity + "-" + (cellSize >> 10) + "k";
  }
}
