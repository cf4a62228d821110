package org.tropos.client.hadoop;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.tropos.proto.om.DelegationToken;
import org.tropos.proto.om.DelegationTokenIdentifier;

/**
 * A Tropos delegation token as Hadoop sees it ({@code Token.decodeIdentifier}, {@code hadoop dtutil print}): its
 * identifier bytes are the OM's {@link DelegationTokenIdentifier}, unchanged, since the OM verifies those bytes.
 */
public final class TroposTokenIdentifier extends TokenIdentifier {
  public static final Text KIND = new Text("TROPOS_DELEGATION_TOKEN");

  private DelegationTokenIdentifier said = DelegationTokenIdentifier.getDefaultInstance();

  /** For Hadoop's service loader, which then reads the fields. */
  public TroposTokenIdentifier() {
  }

  @Override
  public Text getKind() {
    return KIND;
  }

  @Override
  public UserGroupInformation getUser() {
    return said.getOwner().isEmpty() ? null : UserGroupInformation.createRemoteUser(said.getOwner());
  }

  public DelegationTokenIdentifier identifier() {
    return said;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.write(said.toByteArray());
  }

  /** Reads the whole stream: Hadoop hands an identifier's own bytes, nothing after them. */
  @Override
  public void readFields(DataInput in) throws IOException {
    if (!(in instanceof InputStream stream)) {
      throw new IOException("a Tropos token identifier is read from its own bytes only");
    }
    try {
      said = DelegationTokenIdentifier.parseFrom(stream.readAllBytes());
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("not a Tropos delegation token identifier: " + e.getMessage(), e);
    }
  }

  /** The OM's {@code token} as a Hadoop token for the OM or OM service {@code service} names. */
  static Token<TroposTokenIdentifier> toHadoop(DelegationToken token, String service) {
    return new Token<>(token.getIdentifier().toByteArray(), token.getPassword().toByteArray(), KIND,
        new Text(service));
  }

  /** The OM's token a Hadoop token of this kind carries. */
  static DelegationToken toTropos(Token<?> token) {
    return DelegationToken.newBuilder().setIdentifier(com.google.protobuf.ByteString.copyFrom(token.getIdentifier()))
        .setPassword(com.google.protobuf.ByteString.copyFrom(token.getPassword())).build();
  }
}
