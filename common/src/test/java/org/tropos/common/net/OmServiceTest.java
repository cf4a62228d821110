package org.tropos.common.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tropos.common.conf.ConfigException;
import org.tropos.common.conf.Configuration;

/** An OM HA service read from Ozone's keys, with a clear error for each way it can be misconfigured. */
class OmServiceTest {
  private static final Map<String, String> THREE = Map.of("ozone.om.service.ids", "omservice",
      "ozone.om.nodes.omservice", "om1,om2,om3",
      "ozone.om.address.omservice.om1", "host1",
      "ozone.om.address.omservice.om2", "host2:9999",
      "ozone.om.address.omservice.om3", "host3",
      "ozone.om.ratis.port.omservice.om3", "9000");

  private static Configuration conf(Map<String, String> values) {
    return new Configuration(values);
  }

  @Test
  void threeNodesWithTheirClientAndRaftAddresses() {
    OmService service = OmService.from(conf(THREE)).orElseThrow();
    assertEquals("omservice", service.id());
    assertEquals(List.of(new OmService.Node("om1", new HostPort("host1", 9862), new HostPort("host1", 9872)),
        new OmService.Node("om2", new HostPort("host2", 9999), new HostPort("host2", 9872)),
        new OmService.Node("om3", new HostPort("host3", 9862), new HostPort("host3", 9000))), service.nodes());
    assertTrue(OmService.from(Configuration.defaults()).isEmpty(), "no service ids: a single OM");
    assertEquals(service, OmService.from(Configuration.defaults().with(service.toKeys())).orElseThrow(),
        "its keys read back as the same service");
  }

  @Test
  void eachMisconfigurationSaysWhatToSet() {
    assertEquals("ozone.om.nodes.omservice is not set: list the node ids of OM service omservice",
        assertThrows(ConfigException.class, () -> OmService.from(conf(Map.of("ozone.om.service.ids", "omservice"))))
            .getMessage());
    assertEquals("ozone.om.address.omservice.om2 is not set: every OM of service omservice needs an address",
        assertThrows(ConfigException.class, () -> OmService.from(conf(Map.of("ozone.om.service.ids", "omservice",
            "ozone.om.nodes.omservice", "om1,om2", "ozone.om.address.omservice.om1", "h1")))).getMessage());
    assertTrue(assertThrows(ConfigException.class, () -> OmService.from(conf(Map.of("ozone.om.service.ids",
        "a,b")))).getMessage().contains("one OM service"));
  }

  @Test
  void theLocalNodeIsNamedOrFoundByAddress() {
    OmService service = OmService.from(conf(THREE)).orElseThrow();
    assertEquals("om2", service.local(conf(THREE), "host2"::equals).id());
    Map<String, String> named = new java.util.HashMap<>(THREE);
    named.put("ozone.om.node.id", "om3");
    assertEquals("om3", service.local(conf(named), h -> true).id());
    assertTrue(assertThrows(ConfigException.class, () -> service.local(conf(THREE), h -> true)).getMessage()
        .contains("set ozone.om.node.id"));
    named.put("ozone.om.node.id", "om9");
    assertTrue(assertThrows(ConfigException.class, () -> service.local(conf(named), h -> true)).getMessage()
        .contains("not one of the nodes"));
  }
}
