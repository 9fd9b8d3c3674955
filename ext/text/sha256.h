/*
** sha256.h -- SHA-256 (FIPS 180-4), written from the standard.
**
** Pure: used for dedupe keys, derived trigger ids and jitter. Checked
** against the NIST example vectors in tests/unit/test_sha256.c.
*/
#ifndef TRIGGERS_SHA256_H
#define TRIGGERS_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
  uint32_t h[8];
  uint64_t total; /* bytes hashed so far */
  unsigned char block[64];
  size_t used; /* bytes pending in block */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, unsigned char out[32]);

/* One call: digest of data. */
void sha256(const void *data, size_t n, unsigned char out[32]);
/* Lower-case hex of the first nbytes of a digest into out (2*nbytes+1). */
void sha256_hex(const unsigned char digest[32], size_t nbytes, char *out);

#endif
