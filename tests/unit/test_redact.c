/*
** test_redact.c -- the redaction table of ext/redact.c: every secret
** pattern of redact.h removed (exact output), ordinary text untouched,
** idempotence (also over 100k generated inputs), and the snprintf-style
** size contract.
**   make build/unit/test_redact && build/unit/test_redact
*/
#include "check.h"

#include <stdint.h>

#include "redact.h"

#define R REDACT_MARKER

typedef struct redact_case {
  const char *what, *in, *want;
} redact_case;

static const redact_case secrets[] = {
    {"openai key", "use sk-abcdefghijklmnopqrstuvwxyz0123 now",
     "use " R " now"},
    {"openai project key", "sk-proj-AbC123_def-456ghiJKL789mno", R},
    {"anthropic key", "key sk-ant-api03-abcdefghijklmnopqrstuv.", "key " R "."},
    {"stripe key", "sk_live_51HxYzAbCdEf01", R},
    {"github pat classic", "ghp_1234567890abcdefghijABCDEFGHIJ123456", R},
    {"github oauth", "(gho_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345)", "(" R ")"},
    {"github server", "ghs_aBcDeFgHiJkLmNoPqRsT1234", R},
    {"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
     R},
    {"gitlab", "glpat-xxxxxxxxxxxxxxxxxxxx", R},
    {"aws access key id", "AKIAIOSFODNN7EXAMPLE is the id", R " is the id"},
    {"aws session key id", "id=ASIAY34FZKBOKMUTVV7A;", "id=" R ";"},
    {"slack bot", "xoxb-123456789012-1234567890123-AbCdEfGhIjKl", R},
    {"slack user", "xoxp-1234-5678-abcdef", R},
    {"slack app", "xoxa-2-abcdefghij", R},
    {"google", "AIzaSyA-1234567890abcdefghijklmnopqrstu", R},
    {"hugging face", "hf_abcdefghijklmnopqrstuvwxyzABCDEF", R},
    {"bearer header", "Authorization: Bearer abc.def-123_XYZ",
     "Authorization: Bearer " R},
    {"bearer lower case", "bearer 0123456789abcdef", "bearer " R},
    {"bearer long word", "Bearer abcdefghijklmnopqrstuvwxyz", "Bearer " R},
    {"jwt", "t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dGhpcyBpcyBhIHNpZw ok",
     "t=" R " ok"},
    {"jwt unsigned", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", R},
    {"password=", "login password=hunter2 then", "login password=" R " then"},
    {"PASSWORD= upper", "DB_PASSWORD=s3cr3t", "DB_PASSWORD=" R},
    {"passwd", "passwd=abc;user=bob", "passwd=" R ";user=bob"},
    {"secret=", "client_secret=abc123&x=1", "client_secret=" R "&x=1"},
    {"token= in url", "https://x.example/cb?token=abcdef&page=2",
     "https://x.example/cb?token=" R "&page=2"},
    {"api_key=", "api_key = 12345", "api_key = " R},
    {"apikey:", "apikey: zz9plural", "apikey: " R},
    {"x-api-key header", "X-Api-Key: 0f0f0f0f", "X-Api-Key: " R},
    {"json quoted", "{\"password\": \"correct horse battery\"}",
     "{\"password\": \"" R "\"}"},
    {"single quoted", "secret='a b c'", "secret='" R "'"},
    {"colon with digits", "Password: hunter2", "Password: " R},
    {"colon long word", "token: abcdefghijklmnop", "token: " R},
    {"env export", "export GITHUB_TOKEN=ghp_abc", "export GITHUB_TOKEN=" R},
    {"token=Bearer", "token=Bearer abcdef123456", "token=Bearer " R},
    {"url credentials", "postgres://app:pa55w0rd@db.internal:5432/x",
     "postgres://app:" R "@db.internal:5432/x"},
    {"pem rsa",
     "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n"
     "-----END RSA PRIVATE KEY-----\ndone",
     "key:\n" R "\ndone"},
    {"pem pkcs8", "-----BEGIN PRIVATE KEY-----MIIB-----END PRIVATE KEY-----",
     R},
    {"pem openssh",
     "a -----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n"
     "-----END OPENSSH PRIVATE KEY----- z",
     "a " R " z"},
    {"pem without end", "x -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE", "x " R},
    {"two secrets", "sk-abcdefghijklmnopqrstuvwx and password=p",
     R " and password=" R},
    {"key holding a token", "xoxb-abcdefghijkl_token=s3cret", R "_token=" R},
    {"user holding a token",
     "https://ghp_abcdefghijklmnopqrstuvwx:x-oauth@github.com/r",
     "https://" R ":" R "@github.com/r"},
    {"after a marker",
     "-----BEGIN PRIVATE KEY-----k-----END PRIVATE KEY-----password=p",
     R "password=" R},
};

static const char *const ordinary[] = {
    "",
    "Summarize overnight market moves and post them to #general.",
    "Check the build at https://ci.example.com/job/42?page=2#log",
    "https://example.com:8080/path and mailto:ops@example.com",
    "run 550e8400-e29b-41d4-a716-446655440000 finished",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b merged",
    "the task-list and desk-lamp and risk-assessment-for-the-quarter-2026",
    "max_tokens=500, token_count=3, tokens: 12",
    "Token: expired. Secret: keep calm. password: reset",
    "deploy: hold until Monday; review PR 42",
    "bearer of bad news, Bearer bonds",
    "AKIA is a prefix; AKIAIOSFODNN7EXAMPLEX is too long",
    "sk-short and ghp_short and xoxb-short",
    "eyJ alone, and eyJhbGciOiJ.no second dot",
    "eyJa-eyJa-eyJa-eyJa-eyJa-eyJa",
    "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    "-----BEGIN PUBLIC KEY-----",
    "caf\xc3\xa9 na\xc3\xafve \xe2\x9c\x93 unicode stays",
    "password=" R " is already redacted",
};

static void check_case(const char *what, const char *in, const char *want) {
  char out[512];
  size_t n = redact(in, strlen(in), out, sizeof out);
  CHECK_STR(out, want, what);
  CHECK_EQ_I64(n, strlen(want), what);
  /* idempotent: redacting the result changes nothing */
  char again[512];
  redact(out, n, again, sizeof again);
  CHECK_STR(again, want, what);
}

static void check_sizes(void) {
  const char *in = "password=hunter2";
  const char *want = "password=" R;
  char small[8];
  size_t n = redact(in, strlen(in), small, sizeof small);
  CHECK_EQ_I64(n, strlen(want), "full length reported when out is small");
  CHECK_STR(small, "passwor", "out truncated to cap - 1 and terminated");
  CHECK_EQ_I64(redact(in, strlen(in), NULL, 0), strlen(want),
               "cap 0 only measures");
  /* n bounds the input: no read past it, embedded NUL copied */
  char out[64];
  n = redact("ab\0cd", 5, out, sizeof out);
  CHECK_EQ_I64(n, 5, "embedded NUL kept");
  CHECK(memcmp(out, "ab\0cd", 6) == 0, "embedded NUL bytes");
  n = redact("sk-abcdefghijklmnopqrstuvwxyz", 10, out, sizeof out);
  CHECK_EQ_I64(n, 10, "a short prefix keeps its length");
  CHECK_STR(out, "sk-abcdefg", "a prefix too short for a key is left");
}

/*
** Properties over many generated inputs (a fixed LCG, so every run sees
** the same ones): fragments of every rule glued at random. A second pass
** changes nothing, the measured length equals the written one, and a
** small buffer gets a terminated prefix.
*/
static const char *const fragments[] = {
    "sk-",       "ghp_",     "AKIA", "eyJ",         "Bearer ",
    "bearer\t",  "password", "=",    ":",           "\"",
    "'",         "://",      "@",    "-----BEGIN ", "PRIVATE KEY-----",
    "-----END ", "RSA ",     "abc",  "123",         "ABCDEFGHIJ",
    " ",         "\n",       R,      "]",           "token",
    "xoxb-",     "AIza",     "_",    "-",           ".",
};

static void check_generated(void) {
  uint32_t seed = 12345;
  int unstable = 0, badlen = 0, badcut = 0;
  size_t nfrag = sizeof fragments / sizeof fragments[0];
  for (int it = 0; it < 100000; it++) {
    char in[400], out[4096], again[4096], small[24];
    size_t n = 0;
    seed = seed * 1103515245u + 12345u;
    int parts = (int)(seed >> 16) % 30;
    for (int j = 0; j < parts; j++) {
      seed = seed * 1103515245u + 12345u;
      const char *f = fragments[(seed >> 16) % nfrag];
      size_t k = strlen(f);
      if (n + k >= sizeof in) break;
      memcpy(in + n, f, k);
      n += k;
    }
    size_t m = redact(in, n, out, sizeof out);
    size_t m2 = redact(out, m, again, sizeof again);
    unstable += m2 != m || memcmp(out, again, m) != 0;
    badlen += redact(in, n, NULL, 0) != m;
    redact(in, n, small, sizeof small);
    badcut += strlen(small) != (m < sizeof small ? m : sizeof small - 1) ||
              memcmp(small, out, strlen(small)) != 0;
  }
  CHECK_EQ_I64(unstable, 0, "generated: a second pass changes nothing");
  CHECK_EQ_I64(badlen, 0, "generated: measured length = written length");
  CHECK_EQ_I64(badcut, 0, "generated: small buffer holds a terminated prefix");
}

int main(void) {
  for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++) {
    check_case(secrets[i].what, secrets[i].in, secrets[i].want);
  }
  for (size_t i = 0; i < sizeof ordinary / sizeof ordinary[0]; i++) {
    check_case(ordinary[i], ordinary[i], ordinary[i]);
  }
  check_sizes();
  check_generated();
  return check_report("test_redact");
}
