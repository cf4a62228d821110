package org.tropos.common.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class KerberosPrincipalsTest {
  @Test
  void hostIsSubstitutedLowerCase() {
    assertEquals("om/om1.example.com@EXAMPLE.COM", KerberosPrincipals.resolve("om/_HOST@EXAMPLE.COM",
        "OM1.Example.com"));
    assertEquals("om/fixed@EXAMPLE.COM", KerberosPrincipals.resolve("om/fixed@EXAMPLE.COM", "elsewhere"));
  }

  @Test
  void principalsOfTheRealmMapToTheirFirstComponent() {
    assertEquals(Optional.of("alice"), KerberosPrincipals.shortName("alice@EXAMPLE.COM", "EXAMPLE.COM"));
    assertEquals(Optional.of("alice"), KerberosPrincipals.shortName("alice/admin@EXAMPLE.COM", "EXAMPLE.COM"));
    assertEquals(Optional.of("om"), KerberosPrincipals.shortName("om/host@EXAMPLE.COM", "EXAMPLE.COM"));
  }

  @Test
  void principalsOfAnotherRealmOrNoneAreNobody() {
    assertEquals(Optional.empty(), KerberosPrincipals.shortName("alice@OTHER.COM", "EXAMPLE.COM"));
    assertEquals(Optional.empty(), KerberosPrincipals.shortName("alice", "EXAMPLE.COM"));
    assertEquals(Optional.empty(), KerberosPrincipals.shortName("@EXAMPLE.COM", "EXAMPLE.COM"));
  }
}
