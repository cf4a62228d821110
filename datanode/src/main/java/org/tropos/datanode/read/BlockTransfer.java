package org.tropos.datanode.read;

/** How a block's bytes leave the datanode. */
public enum BlockTransfer {
  /** Page cache → socket with {@code sendfile} ({@code DefaultFileRegion}): the bytes never enter the JVM. */
  ZERO_COPY,
  /**
   * File → heap buffer → socket, the path HADOOP-2758 removed. Kept only as the baseline of {@code tropos bench
   * read}, which must run the same server with nothing but the transfer changed.
   */
  COPYING
}
