package org.tropos.common.security;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.tropos.common.util.Clock;
import org.tropos.common.util.Uuids;
import org.tropos.proto.hdds.AccessMode;
import org.tropos.proto.hdds.BlockId;
import org.tropos.proto.hdds.BlockToken;
import org.tropos.proto.hdds.BlockTokenIdentifier;

/**
 * Block tokens (Ozone's model): the OM signs one with SCM's newest secret key for each block location it hands
 * out, naming the block, its bearer and what the bearer may do until when; a datanode reads or writes a block only
 * for a token that verifies under a key SCM made. A datanode signs container tokens (local id 0) for its own
 * copies and closes. With security off there are no tokens and every request is let through.
 */
public final class BlockTokens {
  private final Optional<SecretKeyRing> keys;
  private final Duration lifetime;
  private final Clock clock;

  private BlockTokens(Optional<SecretKeyRing> keys, Duration lifetime, Clock clock) {
    this.keys = keys;
    this.lifetime = lifetime;
    this.clock = clock;
  }

  /** No tokens: a cluster that is not secure. */
  public static BlockTokens off() {
    return new BlockTokens(Optional.empty(), Duration.ZERO, null);
  }

  /** Tokens signed and verified with {@code keys}, each valid for {@code lifetime}. */
  public static BlockTokens signedWith(SecretKeyRing keys, Duration lifetime, Clock clock) {
    return new BlockTokens(Optional.of(keys), lifetime, clock);
  }

  public boolean enabled() {
    return keys.isPresent();
  }

  /** A token letting {@code owner} access {@code block} in {@code modes}; only when {@link #enabled}. */
  public BlockToken issue(String owner, BlockId block, List<AccessMode> modes) throws IOException {
    SecretKey key = keys.orElseThrow(() -> new IllegalStateException("block tokens are off")).current();
    Instant expiry = clock.wallTime().plus(lifetime);
    if (expiry.isAfter(key.expiry())) {
      expiry = key.expiry();
    }
    ByteString identifier = BlockTokenIdentifier.newBuilder().setKeyId(Uuids.toProto(key.id()))
        .setExpiryMs(expiry.toEpochMilli()).setOwner(owner).setBlockId(block).addAllModes(modes).build()
        .toByteString();
    return BlockToken.newBuilder().setIdentifier(identifier).setSignature(ByteString.copyFrom(key.mac(identifier)))
        .build();
  }

  /** A token for the whole container {@code containerId}: a datanode's own copies and closes. */
  public BlockToken forContainer(long containerId, String owner, List<AccessMode> modes) throws IOException {
    return issue(owner, BlockId.newBuilder().setContainerId(containerId).build(), modes);
  }

  /**
   * Checks that {@code token} lets its bearer access {@code block} in {@code mode}: signed with a key SCM made
   * that has not expired, not expired itself, for this block or (local id 0) its whole container, with the mode.
   * A request for a whole container (local id 0) needs a container token. Nothing is checked when tokens are off.
   *
   * @throws IOException when the keys cannot be fetched from SCM (the request may be tried again)
   */
  public void verify(BlockToken token, BlockId block, AccessMode mode) throws BlockTokenException, IOException {
    if (keys.isEmpty()) {
      return;
    }
    BlockTokenIdentifier said = signed(token, mode);
    Instant expiry = Instant.ofEpochMilli(said.getExpiryMs());
    if (!expiry.isAfter(clock.wallTime())) {
      throw new BlockTokenException("the block token expired at " + expiry);
    }
    BlockId granted = said.getBlockId();
    boolean covers = granted.getContainerId() == block.getContainerId()
        && (granted.getLocalId() == 0 || granted.getLocalId() == block.getLocalId());
    if (!covers) {
      throw new BlockTokenException("the block token is for " + name(granted) + ", not " + name(block));
    }
    checkMode(said, block, mode);
  }

  /**
   * Whom {@code token} was issued to, after checking that it names exactly {@code block} (no container token) in
   * {@code mode}, signed with a key SCM made that has not expired. The token itself may have expired since: this
   * is the OM's proof that it handed the block out (a writer commits what it wrote, however long that took), not
   * a datanode's leave to touch it. Only when {@link #enabled}.
   *
   * @throws IOException when the keys cannot be fetched from SCM (the request may be tried again)
   */
  public String grantee(BlockToken token, BlockId block, AccessMode mode) throws BlockTokenException, IOException {
    BlockTokenIdentifier said = signed(token, mode);
    if (block.getLocalId() == 0 || !said.getBlockId().equals(block)) {
      throw new BlockTokenException("the block token is for " + name(said.getBlockId()) + ", not " + name(block));
    }
    checkMode(said, block, mode);
    return said.getOwner();
  }

  /** The identifier of {@code token}, once its signature is checked under a key SCM made that has not expired. */
  private BlockTokenIdentifier signed(BlockToken token, AccessMode mode) throws BlockTokenException, IOException {
    if (token.getIdentifier().isEmpty()) {
      throw new BlockTokenException("no block token: a secure cluster's datanodes " + verb(mode) + " a block only"
          + " with the token the OM hands out with its location");
    }
    BlockTokenIdentifier said;
    try {
      said = BlockTokenIdentifier.parseFrom(token.getIdentifier());
    } catch (InvalidProtocolBufferException e) {
      throw new BlockTokenException("the block token is unreadable");
    }
    Optional<SecretKey> key = keys.orElseThrow(() -> new IllegalStateException("block tokens are off"))
        .find(Uuids.fromProto(said.getKeyId()));
    if (key.isEmpty()) {
      throw new BlockTokenException("the block token is signed with a key SCM did not make, or one expired");
    }
    if (!MessageDigest.isEqual(key.get().mac(token.getIdentifier()), token.getSignature().toByteArray())) {
      throw new BlockTokenException("the block token's signature does not match it");
    }
    return said;
  }

  private static void checkMode(BlockTokenIdentifier said, BlockId block, AccessMode mode)
      throws BlockTokenException {
    if (!said.getModesList().contains(mode)) {
      throw new BlockTokenException("the block token does not let its bearer " + verb(mode) + " " + name(block));
    }
  }

  private static String verb(AccessMode mode) {
    return mode == AccessMode.ACCESS_WRITE ? "write" : "read";
  }

  private static String name(BlockId block) {
    return block.getLocalId() == 0 ? "container " + block.getContainerId()
        : "block " + block.getContainerId() + ":" + block.getLocalId();
  }
}
