package org.tropos.datanode.container;

import java.nio.file.Path;
import org.tropos.proto.hdds.ChecksumData;

/**
 * What to send for a read: {@code length} bytes of {@code file} from {@code offset}, the requested range widened
 * to whole checksum pieces, with the checksums covering exactly those bytes.
 *
 * @param blockLength the block's committed length
 */
public record ReadPlan(Path file, long offset, long length, ChecksumData checksums, long blockLength) {
}
