/*
** dedupe.h -- dedupe keys (docs/create-action.md#dedupe-keys): "tdk2:" + 32
** lower-case hex digits (the first 16 bytes) of SHA-256 over a canonical
** text.
**
** The canonical text is a JSON array of five strings, written without
** spaces and with JSON string escaping (\" \\ \n \r \t, \u00XX for other
** control bytes; every other byte, UTF-8 included, as is):
**   ["tdk2","<instructions>","<trigger_type>","<schedule>","<scope>"]
** where
**   instructions: trimmed, each run of ASCII white space (space, tab, LF,
**                 CR, VT, FF) collapsed to one space, ASCII letters
**                 lower-cased, all other bytes (Unicode) kept;
**   schedule:     cron: cron_canonical() (6 fields, numbers, sorted), a
**                 space and the trigger's time zone ("0 0 9 * * *
**                 Asia/Tokyo"; NULL or empty tz: UTC), since one cron
**                 in two zones is two schedules; rrule: its canonical
**                 text (time/schedule.h, sched_canonical), a space and
**                 the zone, the same way; interval: interval_ms in
**                 decimal (the anchor left out); once: the UTC instant in
**                 ms, decimal (tz not used);
**   scope:        as given ('' when none).
** The format never changes silently: tests pin keys (tests/unit/
** test_dedupe.c), and a new format gets a new prefix. tdk1 (until 0.1)
** had no time zone; trigger_install() recomputes tdk1 keys.
** Pure: no SQLite, no allocation beyond the caller's buffers.
*/
#ifndef TRIGGERS_DEDUPE_H
#define TRIGGERS_DEDUPE_H

#include <stddef.h>

#define DEDUPE_PREFIX "tdk2:"
#define DEDUPE_KEY_LEN 37 /* "tdk2:" + 32 hex */

/* Normalized instructions into out (at most strlen(in)+1 bytes needed). */
size_t dedupe_normalize(const char *in, char *out, size_t n);

/*
** The canonical text (for documentation and tests) into out; returns its
** length, or the length it would need when n is too small.
*/
size_t dedupe_canonical_text(const char *instructions, const char *type,
                             const char *schedule, const char *tz,
                             const char *scope, char *out, size_t n);

/* key: DEDUPE_KEY_LEN + 1 bytes. */
void dedupe_key(const char *instructions, const char *type,
                const char *schedule, const char *tz, const char *scope,
                char *key);

#endif
