package org.tropos.om.occ;

import java.util.concurrent.CompletableFuture;

/** A transaction waiting for the committer: what it read, what it writes, and who waits for its id. */
record Pending(ReadSet reads, WriteSet writes, CompletableFuture<Long> done) {
}
