/*
** redact.h -- remove secrets from text before it reaches a prompt
** (DESIGN.md §9). Pure: no SQLite, no allocation, no clock.
**
** Each secret is replaced by REDACT_MARKER; for `key=value` forms the key
** and separator stay and only the value is replaced. What is recognized
** (ASCII, scanned left to right, first rule that matches wins):
**
**   PEM private key blocks   -----BEGIN [..] PRIVATE KEY----- through the
**                            matching -----END [..] PRIVATE KEY----- (to
**                            the end of the text when the END line is
**                            missing)
**   credentials in URLs      scheme://user:PASSWORD@host
**   key = value / key: value a key (letters, digits, _ . -; at most 64)
**                            whose name ends with password, passwd,
**                            passphrase, secret,
**                            token, api_key, apikey, secret_key,
**                            access_key or private_key ('-' counts as
**                            '_', any case); quoted values ('..' or "..")
**                            are replaced inside the quotes. After ':' a
**                            single plain word (letters only, < 12) is
**                            left alone, so prose like "Token: expired"
**                            survives; after '=' any value is replaced
**   API keys by prefix       sk-.. (incl. sk-proj-, sk-ant-), sk_live_,
**                            sk_test_, rk_live_, rk_test_, ghp_ gho_ ghs_
**                            ghu_ ghr_, github_pat_, glpat-, xox[aboprse]-
**                            (Slack), AIza.. (Google), AKIA/ASIA + 16
**                            upper-case letters or digits (AWS), hf_, npm_
**                            -- each with a minimum body length, starting
**                            at a word boundary
**   JWTs                     eyJ<b64url>.<b64url>.<b64url?>
**   bearer tokens            "Bearer <token>" (any case; the token needs a
**                            digit or symbol, or 20+ characters)
**
** Plain prose, URLs without credentials, UUIDs and hex commit ids are not
** touched. Redacting redacted text changes nothing. Time is linear in n.
*/
#ifndef TRIGGERS_REDACT_H
#define TRIGGERS_REDACT_H

#include <stddef.h>

#define REDACT_MARKER "[REDACTED]"

/*
** Redact in[0..n) into out (snprintf-style): writes at most cap-1 bytes
** plus a NUL when cap > 0 and returns the full length of the redacted
** text, so a result >= cap means out was too small.
*/
size_t redact(const char *in, size_t n, char *out, size_t cap);

#endif
