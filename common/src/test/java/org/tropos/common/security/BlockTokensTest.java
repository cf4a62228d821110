package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tropos.common.util.ManualClock;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.BlockTokenIdentifier;

class BlockTokensTest {
  private static final BlockId BLOCK = BlockId.newBuilder().setContainerId(7).setLocalId(42).build();
  private static final List<AccessMode> READ = List.of(AccessMode.ACCESS_READ);

  private final ManualClock clock = new ManualClock();
  private final SecretKey key = SecretKey.generate(clock.wallTime(), Duration.ofDays(2));
  private final BlockTokens tokens = BlockTokens.signedWith(new FixedKeyRing(key), Duration.ofHours(1), clock);

  private static String refusal(ThrowingCheck check) {
    return assertThrows(BlockTokenException.class, check::run).getMessage();
  }

  private interface ThrowingCheck {
    void run() throws Exception;
  }

  @Test
  void aTokenGrantsItsBlockInItsModeOnly() throws Exception {
    BlockToken token = tokens.issue("alice", BLOCK, READ);
    assertDoesNotThrow(() -> tokens.verify(token, BLOCK, AccessMode.ACCESS_READ));
    assertTrue(refusal(() -> tokens.verify(token, BLOCK, AccessMode.ACCESS_WRITE)).contains("write"));
    BlockId neighbour = BLOCK.toBuilder().setLocalId(43).build();
    assertTrue(refusal(() -> tokens.verify(token, neighbour, AccessMode.ACCESS_READ)).contains("not block 7:43"));
    BlockId container = BlockId.newBuilder().setContainerId(7).build();
    assertTrue(refusal(() -> tokens.verify(token, container, AccessMode.ACCESS_READ)).contains("container 7"));
  }

  @Test
  void aContainerTokenGrantsEveryBlockOfItsContainer() throws Exception {
    BlockToken token = tokens.forContainer(7, "datanode", READ);
    assertDoesNotThrow(() -> tokens.verify(token, BLOCK, AccessMode.ACCESS_READ));
    assertDoesNotThrow(() -> tokens.verify(token, BlockId.newBuilder().setContainerId(7).build(),
        AccessMode.ACCESS_READ));
    BlockId elsewhere = BlockId.newBuilder().setContainerId(8).setLocalId(1).build();
    assertThrows(BlockTokenException.class, () -> tokens.verify(token, elsewhere, AccessMode.ACCESS_READ));
  }

  @Test
  void missingExpiredForgedOrForeignTokensAreRefused() throws Exception {
    assertTrue(refusal(() -> tokens.verify(BlockToken.getDefaultInstance(), BLOCK, AccessMode.ACCESS_READ))
        .contains("no block token"));

    BlockToken token = tokens.issue("alice", BLOCK, READ);
    BlockTokenIdentifier said = BlockTokenIdentifier.parseFrom(token.getIdentifier());
    BlockToken widened = token.toBuilder().setIdentifier(said.toBuilder()
        .addModes(AccessMode.ACCESS_WRITE).build().toByteString()).build();
    assertTrue(refusal(() -> tokens.verify(widened, BLOCK, AccessMode.ACCESS_WRITE)).contains("signature"));

    SecretKey other = SecretKey.generate(clock.wallTime(), Duration.ofDays(2));
    BlockToken foreign = BlockTokens.signedWith(new FixedKeyRing(other), Duration.ofHours(1), clock).issue("mallory", BLOCK,
        READ);
    assertTrue(refusal(() -> tokens.verify(foreign, BLOCK, AccessMode.ACCESS_READ)).contains("did not make"));

    BlockToken garbage = BlockToken.newBuilder().setIdentifier(ByteString.copyFromUtf8("\u00ff\u00ff"))
        .setSignature(ByteString.copyFromUtf8("x")).build();
    assertTrue(refusal(() -> tokens.verify(garbage, BLOCK, AccessMode.ACCESS_READ)).contains("unreadable"));

    clock.advance(Duration.ofHours(1));
    assertTrue(refusal(() -> tokens.verify(token, BLOCK, AccessMode.ACCESS_READ)).contains("expired"));
  }

  @Test
  void aWriteTokenProvesItsBlockWasGrantedEvenAfterItExpires() throws Exception {
    BlockToken token = tokens.issue("alice", BLOCK, List.of(AccessMode.ACCESS_WRITE));
    clock.advance(Duration.ofHours(2));
    assertEquals("alice", tokens.grantee(token, BLOCK, AccessMode.ACCESS_WRITE));
    BlockId neighbour = BLOCK.toBuilder().setLocalId(43).build();
    assertTrue(refusal(() -> tokens.grantee(token, neighbour, AccessMode.ACCESS_WRITE)).contains("not block 7:43"));
    assertTrue(refusal(() -> tokens.grantee(tokens.issue("alice", BLOCK, READ), BLOCK, AccessMode.ACCESS_WRITE))
        .contains("write"));
    BlockToken wholeContainer = tokens.forContainer(7, "alice", List.of(AccessMode.ACCESS_WRITE));
    assertTrue(refusal(() -> tokens.grantee(wholeContainer, BLOCK, AccessMode.ACCESS_WRITE))
        .contains("container 7"), "a container token names no block it was granted for");
    BlockToken foreign = BlockTokens.signedWith(new FixedKeyRing(SecretKey.generate(clock.wallTime(),
        Duration.ofDays(2))), Duration.ofHours(1), clock).issue("alice", BLOCK, List.of(AccessMode.ACCESS_WRITE));
    assertTrue(refusal(() -> tokens.grantee(foreign, BLOCK, AccessMode.ACCESS_WRITE)).contains("did not make"));
  }

  @Test
  void offLetsEverythingThrough() throws Exception {
    assertDoesNotThrow(() -> BlockTokens.off().verify(BlockToken.getDefaultInstance(), BLOCK,
        AccessMode.ACCESS_WRITE));
  }
}
