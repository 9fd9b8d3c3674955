/*
** sha256.c -- SHA-256 as specified in FIPS 180-4 (sections 4.1.2, 4.2.2,
** 5.1.1, 6.2). Streaming interface; no allocation.
*/
#include "text/sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/* The functions of FIPS 180-4 section 4.1.2. */
#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x) (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x) (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x) (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* Message schedule word t >= 16 (section 6.2.2 step 1), kept in a ring
** of the last 16 words. */
#define SCHEDULE(w, t) \
  ((w)[(t)&15] +=      \
   SSIG1((w)[((t)-2) & 15]) + (w)[((t)-7) & 15] + SSIG0((w)[((t)-15) & 15]))

/* One round (step 3) with the working variables named in their order
** for this round: instead of moving eight variables along, the next
** round names them one place further. */
#define ROUND(a, b, c, d, e, f, g, h, k, wt)                 \
  do {                                                       \
    uint32_t t1 = (h) + BSIG1(e) + CH(e, f, g) + (k) + (wt); \
    (d) += t1;                                               \
    (h) = t1 + BSIG0(a) + MAJ(a, b, c);                      \
  } while (0)

/* Eight rounds from t; W(t) gives the schedule word of round t. */
#define ROUNDS8(t, W)                                      \
  do {                                                     \
    ROUND(a, b, c, d, e, f, g, k, K[(t)], W((t)));         \
    ROUND(k, a, b, c, d, e, f, g, K[(t) + 1], W((t) + 1)); \
    ROUND(g, k, a, b, c, d, e, f, K[(t) + 2], W((t) + 2)); \
    ROUND(f, g, k, a, b, c, d, e, K[(t) + 3], W((t) + 3)); \
    ROUND(e, f, g, k, a, b, c, d, K[(t) + 4], W((t) + 4)); \
    ROUND(d, e, f, g, k, a, b, c, K[(t) + 5], W((t) + 5)); \
    ROUND(c, d, e, f, g, k, a, b, K[(t) + 6], W((t) + 6)); \
    ROUND(b, c, d, e, f, g, k, a, K[(t) + 7], W((t) + 7)); \
  } while (0)

static void compress(uint32_t h[8], const unsigned char *p) {
  uint32_t w[16];
  for (int t = 0; t < 16; t++) {
    w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
           (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
  uint32_t e = h[4], f = h[5], g = h[6], k = h[7];
#define W_FIRST(t) w[t]
#define W_NEXT(t) SCHEDULE(w, t)
  ROUNDS8(0, W_FIRST);
  ROUNDS8(8, W_FIRST);
  ROUNDS8(16, W_NEXT); /* unrolled: constant ring indexes */
  ROUNDS8(24, W_NEXT);
  ROUNDS8(32, W_NEXT);
  ROUNDS8(40, W_NEXT);
  ROUNDS8(48, W_NEXT);
  ROUNDS8(56, W_NEXT);
#undef W_FIRST
#undef W_NEXT
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

void sha256_init(sha256_ctx *c) {
  static const uint32_t H0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
                                 0xa54ff53a, 0x510e527f, 0x9b05688c,
                                 0x1f83d9ab, 0x5be0cd19};
  memcpy(c->h, H0, sizeof H0);
  c->total = 0;
  c->used = 0;
}

void sha256_update(sha256_ctx *c, const void *data, size_t n) {
  const unsigned char *p = data;
  c->total += n;
  while (n > 0) {
    size_t take = 64 - c->used;
    if (take > n) take = n;
    memcpy(c->block + c->used, p, take);
    c->used += take;
    p += take;
    n -= take;
    if (c->used == 64) {
      compress(c->h, c->block);
      c->used = 0;
    }
  }
}

void sha256_final(sha256_ctx *c, unsigned char out[32]) {
  uint64_t bits = c->total * 8;
  /* 0x80, then zeros up to 56 bytes into a block, in one update */
  static const unsigned char pad[64] = {0x80};
  sha256_update(c, pad, (c->used < 56 ? 56 : 120) - c->used);
  unsigned char len[8];
  for (int i = 0; i < 8; i++) len[i] = (unsigned char)(bits >> (56 - 8 * i));
  sha256_update(c, len, 8);
  for (int i = 0; i < 8; i++) {
    out[4 * i] = (unsigned char)(c->h[i] >> 24);
    out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
    out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
    out[4 * i + 3] = (unsigned char)c->h[i];
  }
}

void sha256(const void *data, size_t n, unsigned char out[32]) {
  sha256_ctx c;
  sha256_init(&c);
  sha256_update(&c, data, n);
  sha256_final(&c, out);
}

void sha256_hex(const unsigned char digest[32], size_t nbytes, char *out) {
  static const char hex[] = "0123456789abcdef";
  if (nbytes > 32) nbytes = 32;
  for (size_t i = 0; i < nbytes; i++) {
    out[2 * i] = hex[digest[i] >> 4];
    out[2 * i + 1] = hex[digest[i] & 15];
  }
  out[2 * nbytes] = 0;
}
