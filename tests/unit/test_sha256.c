/*
** test_sha256.c -- SHA-256 against the NIST FIPS 180-4 example vectors
** (one-block "abc", two-block 448-bit message, one million 'a') and the
** empty string, plus streaming in odd-sized pieces.
*/
#include "check.h"
#include "text/sha256.h"

static void hex_of(const char *msg, size_t n, char out[65]) {
  unsigned char d[32];
  sha256(msg, n, d);
  sha256_hex(d, 32, out);
}

int main(void) {
  char h[65];
  hex_of("", 0, h);
  CHECK_STR(h,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "empty");
  hex_of("abc", 3, h);
  CHECK_STR(h,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "abc");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  hex_of(two, strlen(two), h);
  CHECK_STR(h,
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            "448-bit");
  sha256_ctx c;
  sha256_init(&c);
  char a[1000];
  memset(a, 'a', sizeof a);
  for (int i = 0; i < 1000; i++) sha256_update(&c, a, sizeof a);
  unsigned char d[32];
  sha256_final(&c, d);
  sha256_hex(d, 32, h);
  CHECK_STR(h,
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
            "million a");
  /* Streaming in uneven pieces equals one call. */
  sha256_init(&c);
  for (size_t i = 0; i < strlen(two); i += 7) {
    size_t n = strlen(two) - i < 7 ? strlen(two) - i : 7;
    sha256_update(&c, two + i, n);
  }
  sha256_final(&c, d);
  sha256_hex(d, 32, h);
  CHECK_STR(h,
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            "streamed");
  sha256_hex(d, 4, h);
  CHECK_STR(h, "248d6a61", "truncated hex");
  sha256_hex(d, 40, h); /* more than the digest: all 32 bytes */
  CHECK_STR(h,
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            "hex of more than 32 bytes");
  return check_report("sha256");
}
