package org.tropos.s3.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class SigningKeysTest {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

  @Test
  void aScopeIsDerivedOnceAndEachScopeAndSecretGetsItsOwnKey() {
    SigningKeys keys = new SigningKeys();
    byte[] first = keys.of(SECRET, "20130524", "us-east-1", "s3");
    assertSame(first, keys.of(SECRET, "20130524", "us-east-1", "s3"));
    assertArrayEquals(SigV4.signingKey(SECRET, "20130524", "us-east-1", "s3"), first);
    assertArrayEquals(SigV4.signingKey(SECRET, "20130525", "us-east-1", "s3"), keys.of(SECRET, "20130525",
        "us-east-1", "s3"), "the next day");
    assertArrayEquals(SigV4.signingKey("another", "20130524", "us-east-1", "s3"), keys.of("another", "20130524",
        "us-east-1", "s3"), "a changed secret");
  }

  @Test
  void scopesPastTheBoundStillGetTheirKeys() {
    SigningKeys keys = new SigningKeys();
    for (int i = 0; i < 3000; i++) {
      String region = "region-" + i;
      assertArrayEquals(SigV4.signingKey(SECRET, "20130524", region, "s3"), keys.of(SECRET, "20130524", region,
          "s3"));
    }
  }
}
