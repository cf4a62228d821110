package org.tropos.om.acl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.proto.om.AclRight;
import org.tropos.proto.om.VolumeInfo;

/** ozone.acl.authorizer.class: the native authorizer unless a plugin is named, and a clear stop for a bad one. */
class AuthorizersTest {
  private static final Resource VOLUME = Resource.of(VolumeInfo.newBuilder().setName("v").setOwner("o").build());

  /** A plugin that lets the users its configuration names read, and nobody anything else. */
  public static final class Readers implements Authorizer {
    private final Set<String> readers;

    public Readers(Configuration conf) {
      readers = Set.of(conf.raw("test.readers").split(","));
    }

    @Override
    public boolean allows(Requester who, Resource on, AclRight right) {
      return right == AclRight.RIGHT_READ && readers.contains(who.user());
    }
  }

  /** A plugin that cannot start. */
  public static final class Broken implements Authorizer {
    public Broken() {
      throw new IllegalStateException("no policy service");
    }

    @Override
    public boolean allows(Requester who, Resource on, AclRight right) {
      return false;
    }
  }

  private static Authorizer load(String className) {
    return Authorizers.of(Configuration.defaults().with("ozone.acl.authorizer.class", className)
        .with("test.readers", "ann,bo"), "s3v");
  }

  private static Requester user(String name) {
    return new Requester(name, Set.of(), false, false);
  }

  @Test
  void theNativeAuthorizerDecidesUnlessAPluginIsNamed() {
    assertInstanceOf(NativeAuthorizer.class, load(""));
    Authorizer plugin = load(Readers.class.getName());
    assertTrue(plugin.allows(user("bo"), VOLUME, AclRight.RIGHT_READ));
    assertFalse(plugin.allows(user("bo"), VOLUME, AclRight.RIGHT_WRITE));
    assertFalse(plugin.allows(user("o"), VOLUME, AclRight.RIGHT_READ), "the plugin, not ownership, decides");
  }

  @Test
  void aPluginThatCannotBeLoadedOrBuiltStopsTheOmWithWhy() {
    for (String bad : new String[] {"org.example.NoSuchAuthorizer", String.class.getName(),
        Broken.class.getName()}) {
      ConfigException e = assertThrows(ConfigException.class, () -> load(bad), bad);
      assertTrue(e.getMessage().contains("ozone.acl.authorizer.class") && e.getMessage().contains(bad),
          e.getMessage());
    }
  }
}
