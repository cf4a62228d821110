package org.tropos.om.acl;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;
import org.tropos.common.conf.OmKeys;

/**
 * The OM's {@link Authorizer}: the class {@code ozone.acl.authorizer.class} names (a Ranger-style plugin on the OM's
 * class path, built with the OM's configuration when it takes one), else the native one. A class that cannot be
 * loaded or built stops the OM at start with why, rather than leaving it to decide access some other way.
 */
public final class Authorizers {
  private Authorizers() {
  }

  public static Authorizer of(Configuration conf, String s3Volume) {
    String name = conf.get(OmKeys.ACL_AUTHORIZER_CLASS).strip();
    if (name.isEmpty()) {
      return new NativeAuthorizer(s3Volume);
    }
    Class<?> type;
    try {
      type = Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new ConfigException(OmKeys.ACL_AUTHORIZER_CLASS.name() + ": " + name + " is not on the OM's class path");
    }
    if (!Authorizer.class.isAssignableFrom(type)) {
      throw new ConfigException(OmKeys.ACL_AUTHORIZER_CLASS.name() + ": " + name + " does not implement "
          + Authorizer.class.getName());
    }
    try {
      return (Authorizer) build(type, conf);
    } catch (InvocationTargetException e) {
      throw new ConfigException(OmKeys.ACL_AUTHORIZER_CLASS.name() + ": " + name + " failed to start: "
          + e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new ConfigException(OmKeys.ACL_AUTHORIZER_CLASS.name() + ": " + name + " has no public constructor"
          + " taking a Configuration or nothing");
    }
  }

  private static Object build(Class<?> type, Configuration conf) throws ReflectiveOperationException {
    try {
      Constructor<?> withConf = type.getConstructor(Configuration.class);
      return withConf.newInstance(conf);
    } catch (NoSuchMethodException e) {
      return type.getConstructor().newInstance();
    }
  }
}
