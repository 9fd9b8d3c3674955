/*
** test_redact.c -- the redaction rules of ext/text/redact.c, one table row per
** case: for every rule positives (the secret replaced, exact output, and
** that rule is the one that fired) and near misses (text that looks like
** the rule but must survive unchanged); a check that no rule is left
** without both. Then ordinary text, idempotence (also over 100k generated
** inputs), the snprintf-style size contract, and linear time: 64 KiB
** adversarial inputs read at most STEPS_PER_BYTE characters per byte.
**   make build/unit/test_redact && build/unit/test_redact
*/
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "text/redact.h"

#define R REDACT_MARKER
/* Full-width forms and zero-width characters, as UTF-8. */
#define FW_S "\xef\xbd\x93"    /* U+FF53 s */
#define FW_K "\xef\xbd\x8b"    /* U+FF4B k */
#define FW_DASH "\xef\xbc\x8d" /* U+FF0D - */
#define FW_EQ "\xef\xbc\x9d"   /* U+FF1D = */
#define FW_P "\xef\xbd\x90"    /* U+FF50 p */
#define FW_A "\xef\xbd\x81"    /* U+FF41 a */
#define FW_1 "\xef\xbc\x91"    /* U+FF11 1 */
#define ZWSP "\xe2\x80\x8b"    /* U+200B */
#define ZWJ "\xe2\x80\x8d"     /* U+200D */
#define WJ "\xe2\x81\xa0"      /* U+2060 */
#define BOM "\xef\xbb\xbf"     /* U+FEFF */
#define SHY "\xc2\xad"         /* U+00AD soft hyphen: invisible */
#define NBSP "\xc2\xa0"        /* U+00A0: visible (a space) */

/* Must match the bound of tests/fuzz/fuzz_redact.c. */
#define STEPS_PER_BYTE 64

typedef struct redact_case {
  const char *rule, *in, *want;
} redact_case;

/* The secret goes, the text around it stays; `rule` fires first. */
static const redact_case positives[] = {
    {"pem-private-key",
     "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n"
     "-----END RSA PRIVATE KEY-----\ndone",
     "key:\n" R "\ndone"},
    {"pem-private-key",
     "-----BEGIN PRIVATE KEY-----MIIB-----END PRIVATE KEY-----", R},
    {"pem-private-key",
     "a -----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n"
     "-----END OPENSSH PRIVATE KEY----- z",
     "a " R " z"},
    {"pem-private-key", "x -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE", "x " R},
    {"pem-private-key",
     "gpg:\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGX\n=a1b2\n"
     "-----END PGP PRIVATE KEY BLOCK-----\nthanks",
     "gpg:\n" R "\nthanks"},
    {"pem-private-key",
     "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF\n"
     "-----END ENCRYPTED PRIVATE KEY-----",
     R},
    {"pem-private-key",
     "-----BEGIN PRIVATE KEY-----k-----END PRIVATE KEY-----password=p",
     R "password=" R},

    {"key-value", "login password=hunter2 then", "login password=" R " then"},
    {"key-value", "DB_PASSWORD=s3cr3t", "DB_PASSWORD=" R},
    {"key-value", "passwd=abc;user=bob", "passwd=" R ";user=bob"},
    {"key-value", "client_secret=abc123&x=1", "client_secret=" R "&x=1"},
    {"key-value", "https://x.example/cb?token=abcdef&page=2",
     "https://x.example/cb?token=" R "&page=2"},
    {"key-value", "api_key = 12345", "api_key = " R},
    {"key-value", "apikey: zz9plural", "apikey: " R},
    {"key-value", "X-Api-Key: 0f0f0f0f", "X-Api-Key: " R},
    {"key-value", "{\"password\": \"correct horse battery\"}",
     "{\"password\": \"" R "\"}"},
    {"key-value", "secret='a b c'", "secret='" R "'"},
    {"key-value", "Password: hunter2", "Password: " R},
    {"key-value", "the password: swordfish", "the password: " R},
    {"key-value", "password: Swordfish.", "password: " R},
    {"key-value", "token: abcdefghijkl", "token: " R}, /* 12 letters */
    /* for a password only a whole status word is prose, not a part of one */
    {"key-value", "password: rese", "password: " R},
    {"key-value", "password: resets", "password: " R},
    {"key-value", "export GITHUB_TOKEN=ghp_abc", "export GITHUB_TOKEN=" R},
    {"key-value", "xoxb-abcdefghijkl_token=s3cret", R "_token=" R},
    {"key-value", "{\\\"password\\\": \\\"a b\\\"}",
     "{\\\"password\\\": \\\"" R "\\\"}"},
    {"key-value",
     "\\\\\\\"token\\\\\\\": \\\\\\\"x\\\\\\\\\\\\\\\"y\\\\\\\", ok",
     "\\\\\\\"token\\\\\\\": \\\\\\\"" R "\\\\\\\", ok"},
    {"key-value", "{\"secret\": \"x\\\"y\"}", "{\"secret\": \"" R "\"}"},
    /* backslashes that are no escaping level before the quote (16, and 2):
       the quoted secret is hidden, not left after the redacted run */
    {"key-value", "password=\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"secret1\" ok",
     "password=\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"" R "\" ok"},
    {"key-value", "password=\\\\\"secret1\" ok", "password=\\\\\"" R "\" ok"},
    /* 17 backslashes: past the levels open_quote reads; two before a
    ** single quote */
    {"key-value", "password=\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"secret1\" ok",
     "password=\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\"" R "\" ok"},
    {"key-value", "password=\\\\'hunter2' ok", "password=\\\\'" R "' ok"},
    {"key-value", "Server=db;Uid=app;Pwd=s3cret;Database=x",
     "Server=db;Uid=app;Pwd=" R ";Database=x"},
    {"key-value", "pwd: hunter2", "pwd: " R},
    {"key-value", "DB_PASS=hunter2", "DB_PASS=" R},
    {"url-credentials", "https://u:a[b@host/x", "https://u:" R "@host/x"},
    {"key-value", "export SMTP_PASS=swordfish", "export SMTP_PASS=" R},
    {"key-value", "dbPass: swordfish", "dbPass: " R},
    {"key-value", "export AWS_SECRET=abc", "export AWS_SECRET=" R},
    {"key-value", "export SLACK_TOKEN=abc", "export SLACK_TOKEN=" R},
    {"key-value",
     "DefaultEndpointsProtocol=https;AccountName=acct;"
     "AccountKey=Zm9vYmFyYmF6+/==;EndpointSuffix=core.windows.net",
     "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" R
     ";EndpointSuffix=core.windows.net"},
    {"key-value", "Endpoint=sb://x/;SharedAccessKey=abc+/=",
     "Endpoint=sb://x/;SharedAccessKey=" R},
    {"key-value", FW_P FW_A "ss" ZWSP "word" FW_EQ "hunter2",
     FW_P FW_A "ss" ZWSP "word" FW_EQ R},
    {"key-value", "password=hunter2[REDACTED]", "password=" R "]"},

    {"url-credentials", "postgres://app:pa55w0rd@db.internal:5432/x",
     "postgres://app:" R "@db.internal:5432/x"},
    {"url-credentials", "see https://bob:p@ssw0rd@example.com/x",
     "see https://bob:" R "@example.com/x"},
    {"url-credentials", "redis://:R3disPass@cache:6379",
     "redis://:" R "@cache:6379"},
    {"url-credentials",
     "https://ghp_abcdefghijklmnopqrstuvwx:x-oauth@github.com/r",
     "https://" R ":" R "@github.com/r"},

    {"slack-webhook",
     "post to https://hooks.slack.com/services/T00000000/B00000000/"
     "XXXXXXXXXXXXXXXXXXXXXXXX now",
     "post to https://hooks.slack.com/services/" R " now"},
    {"slack-webhook", "hooks.slack.com/workflows/T0123/A0456/789/abcdef",
     "hooks.slack.com/workflows/" R},

    {"discord-webhook",
     "url: https://discord.com/api/webhooks/123456789012345678/abcDEF-ghi_jk",
     "url: https://discord.com/api/webhooks/" R},

    {"basic-auth", "Authorization: Basic dXNlcjpwYXNz",
     "Authorization: Basic " R},
    {"basic-auth", "basic Ym9iOnNlY3JldA==, ok", "basic " R ", ok"},

    {"bearer-token", "Authorization: Bearer abc.def-123_XYZ",
     "Authorization: Bearer " R},
    {"bearer-token", "bearer 0123456789abcdef", "bearer " R},
    {"bearer-token", "token=Bearer abcdef123456", "token=Bearer " R},
    {"bearer-token", "Bearer abcdefghijklmnopqrstuvwxyz", "Bearer " R},

    {"aws-secret-key",
     "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok",
     R " " R " ok"},
    {"aws-secret-key",
     "ASIAY34FZKBOKMUTVV7A:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", R ":" R},
    /* the secret must be exactly 40 characters, not followed by '=', and
    ** mix cases with a digit or symbol: else only the id goes */
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE abcdefghijklmnopqrstuvwxyzabcdefghijklmn",
     R " abcdefghijklmnopqrstuvwxyzabcdefghijklmn"},
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE",
     R " wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE"},
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY=",
     R " wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY="},

    {"twilio-auth-token",
     "AC0123456789abcdef0123456789abcdef:fedcba9876543210fedcba9876543210",
     "AC0123456789abcdef0123456789abcdef:" R},

    {"openai-key", "use sk-abcdefghijklmnopqrstuvwxyz0123 now",
     "use " R " now"},
    {"openai-key", "sk-proj-AbC123_def-456ghiJKL789mno", R},
    {"openai-key", "key sk-ant-api03-abcdefghijklmnopqrstuv.", "key " R "."},
    {"openai-key", "OPENAI_KEY_sk-abcdefghijklmnopqrstuvwxyz", "OPENAI_KEY_" R},
    {"openai-key", "sk-abcdefghijklmnopqrstuvwx and password=p",
     R " and password=" R},
    {"openai-key", "key " FW_S FW_K FW_DASH "abcdefghijklmnopqrstuvwxyz" FW_1,
     "key " R},
    {"openai-key", "sk-abc" ZWSP "def" ZWJ "ghi" WJ "jkl" BOM "mnopqrstuvwx!",
     R "!"},

    {"stripe-key", "sk_live_51HxYzAbCdEf01", R},
    {"stripe-key", "(rk_test_abcdefghij12)", "(" R ")"},
    {"github-token", "ghp_1234567890abcdefghijABCDEFGHIJ123456", R},
    /* the shortest: exactly 20 characters after the prefix (19: a miss) */
    {"github-token", "ghp_1234567890abcdefghij ok", R " ok"},
    {"github-token", "(gho_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345)", "(" R ")"},
    {"github-token", "ghs_aBcDeFgHiJkLmNoPqRsT1234", R},
    {"github-pat", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop", R},
    {"gitlab-token", "glpat-xxxxxxxxxxxxxxxxxxxx", R},
    {"slack-token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKl", R},
    {"slack-token", "xoxp-1234-5678-abcdef", R},
    {"slack-token", "xoxa-2-abcdefghij", R},
    {"slack-token", "app token xapp-1-A012345-678-abcdef0123", "app token " R},
    {"google-api-key", "AIzaSyA-1234567890abcdefghijklmnopqrstu", R},
    {"aws-access-key-id", "AKIAIOSFODNN7EXAMPLE is the id", R " is the id"},
    {"aws-access-key-id", "id=ASIAY34FZKBOKMUTVV7A;", "id=" R ";"},
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE 3f786850e387550fdab836ed7e6dc881de23001b",
     R " 3f786850e387550fdab836ed7e6dc881de23001b"},
    {"huggingface-token", "hf_abcdefghijklmnopqrstuvwxyzABCDEF", R},
    {"npm-token", "npm_abcdefghijklmnopqrstuvwxyz0123456789", R},
    {"twilio-api-key", "SK0123456789abcdef0123456789abcdef.", R "."},
    {"sendgrid-key",
     "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyzABCDEFGHIJ-_0123 x",
     R " x"},
    {"jwt", "t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dGhpcyBpcyBhIHNpZw ok",
     "t=" R " ok"},
    {"jwt", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", R},
    {"discord-bot-token",
     "bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs ok",
     "bot " R " ok"},
    /* a word after PRIVATE KEY; a camelCase key; a value starting with
    ** "bearer" that is not the scheme; a '[' that is not a marker */
    {"pem-private-key",
     "-----BEGIN PRIVATE KEY PART-----MIIB-----END PRIVATE KEY-----", R},
    {"key-value", "myPassword=hunter2xyz", "myPassword=" R},
    /* pwd starts a word of the key: after a lower-case letter only when
    ** capitalized (camelCase), so "mypwd" is no key */
    {"key-value", "myPwd=abc123xyz", "myPwd=" R},
    {"key-value", "token=bearerish123", "token=" R},
    {"url-credentials", "https://us[er:pa55@host/x",
     "https://us[er:" R "@host/x"},
    /* an AWS key id whose secret is too far (16 separators at most), not
    ** after a separator, or not mixed (no lower case; no digit or symbol) */
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE,,,,,,,,,,,,,,,,,,wJalrXUtnFEMI/K7MDENG/"
     "bPxRfiCYEXAMPLEKEY ok",
     R ",,,,,,,,,,,,,,,,,,wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok"},
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE/wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     R "/wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE WJALRXUTNFEMI/K7MDENG/BPXRFICYEXAMPLEKEY ok",
     R " WJALRXUTNFEMI/K7MDENG/BPXRFICYEXAMPLEKEY ok"},
    {"aws-access-key-id",
     "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMIaKbMDENGabPxRfiCYEXAMPLEKEY ok",
     R " wJalrXUtnFEMIaKbMDENGabPxRfiCYEXAMPLEKEY ok"},

    /* issue 32: leaks found by an attack on the rules */
    /* a status word, then "to" and the new password */
    {"key-value", "password: changed to hunter2", "password: changed to " R},
    {"key-value", "Password: reset to 'p4ss word' ok",
     "Password: reset to '" R "' ok"},
    /* the value on the next line (after blank ones too), alone on it */
    {"key-value", "password:\nhunter2\nthanks", "password:\n" R "\nthanks"},
    {"key-value", "Password:\r\n\r\n  s3cret  \r\nbye",
     "Password:\r\n\r\n  " R "  \r\nbye"},
    /* Perl, Ruby and PHP hashes: => */
    {"key-value", "{\"password\" => \"hunter2\"}",
     "{\"password\" => \"" R "\"}"},
    {"key-value", "'api_key'=>'abc123'", "'api_key'=>'" R "'"},
    /* a command-line flag and its argument */
    {"key-value", "vault login --password hunter2 -x",
     "vault login --password " R " -x"},
    {"key-value", "app --api-token 'abc def'", "app --api-token '" R "'"},
    /* mysql's password glued to -p */
    {"mysql-password", "mysql -u root -pS3cret -h db",
     "mysql -u root -p" R " -h db"},
    {"mysql-password", "run mysqldump -p'a b' db > x.sql",
     "run mysqldump -p'" R "' db > x.sql"},
    /* curl's user:password */
    {"curl-user", "curl -u alice:S3cret https://api.example.com",
     "curl -u alice:" R " https://api.example.com"},
    {"curl-user", "curl -s --user 'bob:p@ss w' -X POST",
     "curl -s --user 'bob:" R "' -X POST"},
    /* a Cookie header's value is session state */
    {"cookie-header", "Cookie: session=abc123; theme=dark\nnext",
     "Cookie: " R "\nnext"},
    {"cookie-header", "{\"Set-Cookie\": \"sid=xyz; Path=/\"}",
     "{\"Set-Cookie\": \"" R "\"}"},
    /* a PEM header in lower or mixed case */
    {"pem-private-key",
     "-----begin private key-----\nMIIB\n-----end private key-----", R},
    {"pem-private-key", "-----BEGIN private key-----", R},
    {"pem-private-key", "x -----Begin Rsa Private Key-----\nMIIE", "x " R},
    /* a soft hyphen inside a prefix or a key is invisible */
    {"openai-key", "sk" SHY "-abcdefghijklmnopqrstuvwxyz", R},
    {"github-token", "gh" SHY "p_1234567890abcdefghij", R},
    {"key-value", "pass" SHY "word=hunter2", "pass" SHY "word=" R},
};

/* Looks like `rule`, is not a secret: unchanged, no rule fires. */
static const redact_case near_misses[] = {
    {"pem-private-key",
     "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", NULL},
    {"pem-private-key", "-----BEGIN PUBLIC KEY-----", NULL},
    {"pem-private-key",
     "-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQEN\n"
     "-----END PGP PUBLIC KEY BLOCK-----",
     NULL},
    {"pem-private-key",
     "-----begin public key-----\nMIIB\n-----end public key-----", NULL},

    {"key-value", "password reset link sent", NULL},
    {"key-value", "the token was used", NULL},
    {"key-value", "Token: expired. Secret: keep calm. password: reset", NULL},
    {"key-value", "Password: required! passwd: unavailable", NULL},
    {"key-value", "token: abcdefghijk", NULL}, /* 11 letters */
    /* a status word may end a sentence with several marks */
    {"key-value", "password: unavailable....", NULL},
    {"key-value", "password: reset! password: reset?", NULL},
    {"key-value", "token: Bearer", NULL}, /* the scheme word alone */
    {"url-credentials", "https://u:" R "@host", NULL}, /* already redacted */
    {"bearer-token", "Bearerxyz12345678", NULL},       /* no space */
    /* an id glued to 40 characters is not a pair (nor a key id) */
    {"aws-secret-key",
     "AKIAIOSFODNN7EXAMPLEwJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", NULL},
    {"pem-private-key", "-----BEGIN RSA PRIVATE KEY abc", NULL},
    {"pem-private-key", "-----BEGIN PUBLIC PGP KEY-----", NULL},
    /* a first segment of 15 digits: too short for a Discord user id */
    {"discord-bot-token",
     "MTIzNDU2Nzg5MDEyMzQ1.Gh1234.abcdefghijklmnopqrstuvwxyz01", NULL},
    {"key-value", "max_tokens=500, token_count=3, tokens: 12", NULL},
    {"key-value", "bypass=1, compass: north, pass: 12 of 14", NULL},
    {"key-value", "cwd=/tmp and pwdx=1 and passwords: many", NULL},
    {"key-value", "if password == hunter2 or token::x", NULL},
    {"key-value", "password=\"\" and token=", NULL},
    {"key-value", "password=" R " is already redacted", NULL},

    {"url-credentials",
     "https://example.com:8080/path and mailto:ops@example.com", NULL},
    {"url-credentials", "ssh://git@github.com:22/r and https://a.com/x?y=a:b@c",
     NULL},
    {"url-credentials", "https://[::1]:8080/ and http://u@host", NULL},

    {"slack-webhook", "see https://hooks.slack.com/services/ for setup", NULL},
    {"slack-webhook", "https://api.slack.com/services/T0000/B0000/XXXXXXXX",
     NULL},
    {"discord-webhook", "the https://discord.com/api/webhooks/ endpoint", NULL},

    {"basic-auth", "basic understanding of auth", NULL},
    {"basic-auth", "Basic auth is disabled", NULL},
    {"basic-auth", "Basic dGVzdHRlc3Q= (no colon inside)", NULL},

    {"bearer-token", "bearer of bad news, Bearer bonds", NULL},

    {"aws-secret-key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY alone", NULL},
    {"twilio-auth-token",
     "account AC0123456789abcdef0123456789abcdef is active", NULL},
    /* the secret's 32 hex digits glued to a letter */
    {"twilio-auth-token",
     "AC0123456789abcdef0123456789abcdef:fedcba9876543210fedcba9876543210x",
     NULL},

    {"openai-key", "sk-etch", NULL},
    {"openai-key",
     "the task-list and desk-lamp and risk-assessment-for-the-quarter-2026",
     NULL},
    {"openai-key", "sk-short, ta" FW_S FW_K FW_DASH "list", NULL},
    {"stripe-key", "sk_live_short and risk_live_abcdefghijklmnop", NULL},
    {"github-token", "ghp_short and the ghp_ prefix", NULL},
    {"github-token", "ghp_1234567890abcdefghi ok", NULL},
    {"github-pat", "github_pat_short", NULL},
    {"gitlab-token", "glpat-short", NULL},
    {"slack-token", "xoxb-short and the xapp-store", NULL},
    {"google-api-key", "AIzaShort", NULL},
    {"aws-access-key-id", "AKIA is a prefix; AKIAIOSFODNN7EXAMPLEX is too long",
     NULL},
    {"huggingface-token", "hf_short_name", NULL},
    {"npm-token", "npm_install and npm_ci", NULL},
    {"twilio-api-key", "SKU 0123 and SK0123456789abcdef0123456789abcdef0",
     NULL},
    {"sendgrid-key", "SG.1 section and SG.short.alsoshort", NULL},
    {"jwt", "eyJ alone, and eyJhbGciOiJ.no second dot", NULL},
    {"jwt", "eyJa-eyJa-eyJa-eyJa-eyJa-eyJa", NULL},
    {"discord-bot-token",
     "NotADiscordTokenAtAllxyz.abcdef.abcdefghijklmnopqrstuvwxyzabc", NULL},
    /* a first segment with '-' and '_' (not digits), or one character
    ** short (21 after the M) */
    {"discord-bot-token",
     "MTk4NjIyNDgzNDcxOTI1Mj-_.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs", NULL},
    {"discord-bot-token",
     "MTIzNDU2Nzg5MDEyMzQ1Ng.Gh1234.abcdefghijklmnopqrstuvwxyz01", NULL},
    {"key-value", "mypwd=abc123xyz and dbpass=abc123xyz", NULL},
    /* a capital after a capital or digit is no camel-case word start */
    {"key-value", "SKIPass=abc123xyz and 2Pwd=abc123xyz", NULL},

    /* issue 32: what the new forms leave alone */
    {"key-value", "password: changed to the default. password: changed today",
     NULL},
    {"key-value", "password:\nThe next line is a sentence.", NULL},
    {"key-value", "Password:\nrequired", NULL},
    {"key-value", "if password >= 8 then \"password_length\" => 12", NULL},
    {"key-value", "docker login --password-stdin < pw.txt", NULL},
    {"key-value", "use --password to log in, or --token --verbose", NULL},
    {"mysql-password", "mysql -u root -p -h db -P3306; ssh -p2222 host", NULL},
    {"mysql-password", "mysql -h db\n-pS3cret", NULL},
    {"curl-user", "curl -u alice https://x.example.com:8443/y", NULL},
    {"curl-user", "docker run -u 1000:1000 img; curl -u bob: https://x", NULL},
    {"cookie-header", "cookies: accepted. Cookie: none. the cookie: chocolate",
     NULL},
    {"openai-key", "sk" NBSP "-abcdefghijklmnopqrstuvwxyz", NULL},
};

/* Plain text: no rule is near, nothing changes. */
static const char *const ordinary[] = {
    "",
    "Summarize overnight market moves and post them to #general.",
    "Check the build at https://ci.example.com/job/42?page=2#log",
    "run 550e8400-e29b-41d4-a716-446655440000 finished",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b merged",
    "deploy: hold until Monday; review PR 42",
    "caf\xc3\xa9 na\xc3\xafve \xe2\x9c\x93 unicode stays",
    "\xef\xbd\x88\xef\xbd\x85\xef\xbd\x8c\xef\xbd\x8c\xef\xbd\x8f\xe3\x80\x80"
    "full-width words" ZWSP " stay",
    /* next to the full-width ranges (not UTF-8), and Japanese */
    "x \xef\xbc\xc0 \xef\xbd\x7f \xe3\x81\x82 y",
};

static void check_case(const char *what, const char *in, const char *want,
                       const char *rule) {
  char out[512], again[512];
  const char *fired = "?";
  size_t n = redact(in, strlen(in), out, sizeof out);
  CHECK_STR(out, want, what);
  CHECK_EQ_I64(n, strlen(want), what);
  redact_probe(in, strlen(in), &fired);
  CHECK(rule ? fired && strcmp(fired, rule) == 0 : fired == NULL,
        "%s: rule %s fired, want %s", what, fired ? fired : "none",
        rule ? rule : "none");
  /* idempotent: redacting the result changes nothing */
  redact(out, n, again, sizeof again);
  CHECK_STR(again, want, what);
}

/*
** Every character of the rules' character sets and stop sets, one at a
** time (each is a branch of its own): the bytes a key=value value and a
** URL's credentials stop at, the separators between an AWS key id and
** its secret, the characters of a bearer token, the zero-width and
** full-width characters read through (and their neighbours that are not).
*/
static void check_char_classes(void) {
  char in[160], want[160];
  const char *stops = ",;&)}]\"'<>\t";
  for (const char *c = stops; *c; c++) {
    snprintf(in, sizeof in, "password=hunter2%cx", *c);
    snprintf(want, sizeof want, "password=" R "%cx", *c);
    check_case("value stops", in, want, "key-value");
  }
  /* a URL's authority ends at these: no credentials before the '@' */
  for (const char *c = "/?#\"'<> "; *c; c++) {
    snprintf(in, sizeof in, "https://u:p%cq@host", *c);
    char *out = in; /* some other rule may fire on the rest: not this one */
    char got[160];
    redact(out, strlen(out), got, sizeof got);
    CHECK(strstr(got, "u:p") != NULL, "url stop %c: %s", *c, got);
  }
  check_case("url credentials", "https://u:p-q_r.s~t@host",
             "https://u:" R "@host", "url-credentials");
  /* separators between an AWS key id and its secret */
  for (const char *c = " \t\r\n,:;|=\"'"; *c; c++) {
    snprintf(in, sizeof in,
             "AKIAIOSFODNN7EXAMPLE%cwJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
             *c);
    snprintf(want, sizeof want, R "%c" R, *c);
    check_case("aws pair separator", in, want, "aws-secret-key");
  }
  /* a bearer token of every token68 character */
  check_case("bearer token68", "Bearer a-b.c_d~e+f/g==", "Bearer " R,
             "bearer-token");
  /* Basic credentials whose base64 holds '+' and '/' ("??>:>>?" ->
  ** "Pz8+Oj4+Pw==") */
  check_case("basic b64 + and /",
             "Authorization: Basic Pz8+Oj4+Pw==", "Authorization: Basic " R,
             "basic-auth");
  /* zero-width characters inside a key are read through; the characters
  ** beside them in the code chart are not zero-width */
  static const char *const zw[] = {"\xe2\x80\x8b", "\xe2\x80\x8c",
                                   "\xe2\x80\x8d", "\xe2\x81\xa0",
                                   "\xef\xbb\xbf", SHY};
  for (size_t i = 0; i < sizeof zw / sizeof zw[0]; i++) {
    snprintf(in, sizeof in, "pass%sword=hunter2", zw[i]);
    snprintf(want, sizeof want, "pass%sword=" R, zw[i]);
    check_case("zero-width in a key", in, want, "key-value");
  }
  static const char *const not_zw[] = {
      "\xe2\x80\x8a", "\xe2\x80\x8e", "\xe2\x81\xa1", "\xef\xbb\xbe",
      "\xef\xba\xbf", "\xe2\x82\x8b", "\xc2\xac",     "\xc2\xae",
      NBSP,           "\xc3\xad"};
  for (size_t i = 0; i < sizeof not_zw / sizeof not_zw[0]; i++) {
    snprintf(in, sizeof in, "pass%sword=hunter2", not_zw[i]);
    check_case("not zero-width", in, in, NULL);
  }
  /* full-width forms: '！' (U+FF01) and '＿' (U+FF3F) end the first block,
  ** '｀' (U+FF40) and '～' (U+FF5E) the second; U+FF00, U+FF5F and the
  ** ideographic comma (U+3001) are not read as ASCII */
  check_case("full-width underscore in a key", "api\xef\xbc\xbfkey=k1",
             "api\xef\xbc\xbfkey=" R, "key-value");
  check_case("full-width '!' stops nothing", "token=ab\xef\xbc\x81", "token=" R,
             "key-value");
  check_case("full-width tilde in a token68", "Bearer abcdefgh\xef\xbd\x9e",
             "Bearer " R, "bearer-token");
  check_case("U+FF40 read as a backquote",
             "token=ab\xef\xbd\x80"
             "cd",
             "token=" R, "key-value");
  for (const char *const *o =
           (const char *const[]){"\xef\xbc\x80", "\xef\xbd\x9f", "\xe3\x80\x81",
                                 NULL};
       *o; o++) {
    snprintf(in, sizeof in, "pass%sword=hunter2", *o);
    check_case("not full-width", in, in, NULL);
  }
}

/* Every rule has at least one positive and one near miss. */
static void check_coverage(void) {
  const char *name;
  for (size_t i = 0; (name = redact_rule_name(i)) != NULL; i++) {
    int pos = 0, neg = 0;
    for (size_t k = 0; k < sizeof positives / sizeof positives[0]; k++)
      pos += strcmp(positives[k].rule, name) == 0;
    for (size_t k = 0; k < sizeof near_misses / sizeof near_misses[0]; k++)
      neg += strcmp(near_misses[k].rule, name) == 0;
    CHECK(pos > 0 && neg > 0, "rule %s: %d positives, %d near misses", name,
          pos, neg);
  }
  CHECK(redact_rule_name(0) != NULL, "the rule table is not empty");
}

/* A key of any length is named by its end (issue 32: keys longer than
** 64 characters leaked): 64, 65 and 300 characters ending in "password"
** are keys; a long run ending in no key name is not, and neither is a
** long key whose last word only ends in "pwd". */
static void check_key_max(void) {
  char in[512], want[512], run[301];
  size_t lens[] = {56, 57, 292};
  memset(run, 'a', sizeof run - 1);
  run[sizeof run - 1] = 0;
  for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
    snprintf(in, sizeof in, "%.*spassword=x", (int)lens[i], run);
    snprintf(want, sizeof want, "%.*spassword=" R, (int)lens[i], run);
    check_case("long key", in, want, "key-value");
  }
  snprintf(in, sizeof in, "%.*s_pass.word: hunter2", 280, run);
  snprintf(want, sizeof want, "%.*s_pass.word: " R, 280, run);
  check_case("long key, separators", in, want, "key-value");
  snprintf(in, sizeof in, "%.*s=x and %.*spwd=x", 200, run, 200, run);
  check_case("long run, no key name", in, in, NULL);
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
  /* a full-width character cut by n is read as bytes, not past n */
  n = redact(FW_S FW_K, 4, out, sizeof out);
  CHECK_EQ_I64(n, 4, "cut full-width character kept");
}

/*
** Linear time: 64 KiB of a unit that starts a rule over and over. The
** characters read are counted (deterministic), and the CPU time is
** checked generously as well.
*/
static void check_linear(void) {
  static const char *const units[] = {
      "a=",
      "-----BEGIN",
      "-----BEGIN ",
      "-----BEGIN PRIVATE KEY ",
      "-----END PRIVATE KEY-----",
      "eyJa-",
      "eyJabcdefgh.",
      "password=",
      "password: ",
      "password\\",
      "\"password\": \"",
      "\\\\\\\"",
      "://a:",
      "://x:y@",
      "@",
      "Bearer ",
      "Basic AAAA/",
      "Ma-",
      "M" ZWSP "a-",
      "SG.a-",
      ZWSP,
      "s" ZWSP ZWSP ZWSP,
      FW_S,
      "AKIA",
      "AKIAIOSFODNN7EXAMPLE ",
      "AC0123456789abcdef0123456789abcdef ",
      "hooks.slack.com/services/",
      "token: a ",
      R,
      "a",
      "AKIAIOSFODNN7EXAMPLE_",
      "password:\n",
      "password: changed to ",
      "--password ",
      "mysql -p ",
      "mysql ",
      "curl -u a ",
      "Cookie: a",
      "cookie:",
      SHY,
      "\"password\"=>",
  };
  const size_t size = 64 * 1024;
  char *in = malloc(size);
  if (!in) {
    CHECK(0, "out of memory");
    return;
  }
  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
    size_t k = strlen(units[u]), n = size / k * k;
    for (size_t i = 0; i < n; i += k) memcpy(in + i, units[u], k);
    clock_t t0 = clock();
    size_t steps = redact_probe(in, n, NULL);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    CHECK(steps <= STEPS_PER_BYTE * n,
          "64 KiB of '%s': %zu characters read (%.1f per byte)", units[u],
          steps, (double)steps / (double)n);
    CHECK(secs < 2.0, "64 KiB of '%s': %.2f s", units[u], secs);
  }
  free(in);
}

/*
** Properties over many generated inputs (a fixed LCG, so every run sees
** the same ones): fragments of every rule glued at random. A second pass
** changes nothing, the measured length equals the written one, a small
** buffer gets a terminated prefix, and the cost stays linear.
*/
static const char *const fragments[] = {
    "sk-",
    "ghp_",
    "AKIA",
    "eyJ",
    "Bearer ",
    "bearer\t",
    "password",
    "=",
    ":",
    "\"",
    "'",
    "://",
    "@",
    "-----BEGIN ",
    "PRIVATE KEY-----",
    "-----END ",
    "RSA ",
    "abc",
    "123",
    "ABCDEFGHIJ",
    " ",
    "\n",
    R,
    "]",
    "token",
    "xoxb-",
    "AIza",
    "_",
    "-",
    ".",
    "Basic ",
    "dXNlcjpw",
    "\\",
    "/",
    "pwd",
    "_PASS",
    FW_S,
    ZWSP,
    "SG.",
    "M",
    "AC",
    "SK",
    "0123456789",
    "hooks.slack.com/services/",
    "mysql ",
    " -p",
    "curl ",
    " -u ",
    "Cookie: ",
    "=>",
    "--",
    SHY,
    "changed to ",
    "\r\n",
    "-----begin private key-----",
};

static void check_generated(void) {
  uint32_t seed = 12345;
  int unstable = 0, badlen = 0, badcut = 0, slow = 0;
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
    if (m2 != m || memcmp(out, again, m) != 0) {
      if (!unstable)
        fprintf(stderr, "unstable: '%.*s' -> '%.*s' -> '%.*s'\n", (int)n, in,
                (int)m, out, (int)m2, again);
      unstable++;
    }
    badlen += redact(in, n, NULL, 0) != m;
    redact(in, n, small, sizeof small);
    badcut += strlen(small) != (m < sizeof small ? m : sizeof small - 1) ||
              memcmp(small, out, strlen(small)) != 0;
    slow += redact_probe(in, n, NULL) > STEPS_PER_BYTE * (n + 1);
  }
  CHECK_EQ_I64(unstable, 0, "generated: a second pass changes nothing");
  CHECK_EQ_I64(badlen, 0, "generated: measured length = written length");
  CHECK_EQ_I64(badcut, 0, "generated: small buffer holds a terminated prefix");
  CHECK_EQ_I64(slow, 0, "generated: characters read within the linear bound");
}

int main(void) {
  for (size_t i = 0; i < sizeof positives / sizeof positives[0]; i++) {
    const redact_case *c = &positives[i];
    check_case(c->in, c->in, c->want, c->rule);
  }
  for (size_t i = 0; i < sizeof near_misses / sizeof near_misses[0]; i++) {
    const redact_case *c = &near_misses[i];
    check_case(c->in, c->in, c->in, NULL);
  }
  for (size_t i = 0; i < sizeof ordinary / sizeof ordinary[0]; i++) {
    check_case(ordinary[i], ordinary[i], ordinary[i], NULL);
  }
  check_coverage();
  check_char_classes();
  check_key_max();
  check_sizes();
  check_linear();
  check_generated();
  return check_report("test_redact");
}
