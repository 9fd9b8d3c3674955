/*
** redact.h -- remove secrets from text before it reaches a prompt
** (docs/summary.md#redaction). Pure: no SQLite, no allocation, no clock.
**
** Each secret is replaced by REDACT_MARKER; where a secret follows a key
** or a scheme (`password=`, `Bearer `, `://user:`, a webhook's host) that
** part stays and only the secret is replaced. The rules are the table in
** redact.c, tried in order at every position (first match wins), and are
** listed with examples in docs/summary.md ("Redaction"): PEM/PGP private
** key blocks (any case), secrets in key=value / key: value / key => value
** / --key value (password, pwd, *_pass, secret, token, api_key,
** access/account/private/secret key; a key of any length), mysql -p and
** curl -u passwords, Cookie headers, URL credentials, Slack and Discord
** webhooks, Basic and Bearer credentials, AWS key ids and secret keys,
** Twilio, OpenAI/Anthropic, Stripe, GitHub, GitLab, Slack, Google, Hugging
** Face, npm and SendGrid keys, JWTs and Discord bot tokens.
**
** Matching reads full-width forms (U+FF01..U+FF5E, U+3000) as ASCII and
** skips invisible characters (U+00AD, U+200B..U+200D, U+2060, U+FEFF); the
** bytes replaced are the original ones. Plain prose, URLs without
** credentials, UUIDs and hex commit ids are not touched. Redacting redacted
** text changes nothing. Time is linear in n.
*/
#ifndef TRIGGERS_REDACT_H
#define TRIGGERS_REDACT_H

#include <stddef.h>
#include <stdint.h>

#define REDACT_MARKER "[REDACTED]"

/*
** Redact in[0..n) into out (snprintf-style): writes at most cap-1 bytes
** plus a NUL when cap > 0 and returns the full length of the redacted
** text, so a result >= cap means out was too small.
*/
size_t redact(const char *in, size_t n, char *out, size_t cap);

/* The rules' first characters, indexed once for many texts: redact_with
** is redact without indexing them again (most of a short text's cost). */
typedef struct redact_index {
  uint32_t starts[128]; /* a bit per rule that can start at the character */
} redact_index;
void redact_index_init(redact_index *ix);
size_t redact_with(const redact_index *ix, const char *in, size_t n, char *out,
                   size_t cap);

/* The name of rule i in the order rules are tried; NULL past the last. */
const char *redact_rule_name(size_t i);

/*
** For tests and fuzzing: redact in[0..n) without output. Sets *rule_name
** (when not NULL) to the first rule that fired, NULL when none did, and
** returns how many characters the pass read -- a deterministic measure of
** its cost, which stays within a constant times n.
*/
size_t redact_probe(const char *in, size_t n, const char **rule_name);

#endif
