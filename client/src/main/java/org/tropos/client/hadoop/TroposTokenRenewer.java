package org.tropos.client.hadoop;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenRenewer;
import org.tropos.client.TroposClient;
import org.tropos.common.conf.Configuration;
import org.tropos.common.rpc.OmException;

/**
 * Renews and cancels Tropos delegation tokens for Hadoop ({@code Token.renew}, {@code Token.cancel}): YARN's
 * ResourceManager, the tokens' renewer, does so while a job runs. The OM is the one the token's service names; the
 * caller proves itself by Kerberos or a certificate (a token cannot renew tokens).
 */
public final class TroposTokenRenewer extends TokenRenewer {
  @Override
  public boolean handleKind(Text kind) {
    return TroposTokenIdentifier.KIND.equals(kind);
  }

  @Override
  public boolean isManaged(Token<?> token) {
    return true;
  }

  @Override
  public long renew(Token<?> token, org.apache.hadoop.conf.Configuration conf) throws IOException {
    try (TroposClient client = clientFor(token, conf)) {
      return client.renewDelegationToken(TroposTokenIdentifier.toTropos(token));
    } catch (OmException e) {
      throw FsErrors.of(e, "renewing a delegation token of " + token.getService());
    }
  }

  @Override
  public void cancel(Token<?> token, org.apache.hadoop.conf.Configuration conf) throws IOException {
    try (TroposClient client = clientFor(token, conf)) {
      client.cancelDelegationToken(TroposTokenIdentifier.toTropos(token));
    } catch (OmException e) {
      throw FsErrors.of(e, "cancelling a delegation token of " + token.getService());
    }
  }

  private static TroposClient clientFor(Token<?> token, org.apache.hadoop.conf.Configuration conf)
      throws IOException {
    String service = token.getService().toString();
    Configuration tropos = FsConfiguration.of(URI.create(TroposFileSystem.SCHEME + "://" + service), conf);
    return TroposClient.create(tropos, UserGroupInformation.getCurrentUser().getShortUserName(),
        HadoopCredentials.transport(tropos, service, false));
  }
}
