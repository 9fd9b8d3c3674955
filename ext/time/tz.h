/*
** tz.h -- one time zone: a TZif reader (RFC 8536, versions 1-4, including
** the POSIX TZ footer rule for instants past the table) and the mapping
** between UTC and local wall-clock time.
**
** Pure: parses from a memory buffer (tzdb.c reads the files), never reads
** the clock, the TZ variable or libc's time functions. Every count in the
** file is bounded by the buffer length, so hostile input is safe.
**
** Times here are in SECONDS (offsets are whole seconds); callers handle
** milliseconds by splitting them off.
*/
#ifndef TRIGGERS_TZ_H
#define TRIGGERS_TZ_H

#include <stddef.h>
#include <stdint.h>

typedef struct tz_zone tz_zone;

/* The UTC zone: static, never freed, needs no file. */
const tz_zone *tz_utc(void);

/*
** Parse TZif bytes. name is kept (copied) for messages. Returns 0 and a
** malloc'd zone in *out, or -1 with a message ("TZif: truncated data
** block", "TZif: bad magic", "TZif: footer: bad rule 'XYZ'").
*/
int tz_parse(const unsigned char *buf, size_t len, const char *name,
             tz_zone **out, char *err, size_t errlen);
void tz_free(tz_zone *z);
const char *tz_name(const tz_zone *z); /* "UTC" for tz_utc() */

/* UT offset (seconds east) in effect at UTC instant utc_s. */
int32_t tz_offset_at(const tz_zone *z, int64_t utc_s);

/*
** Local wall time -> UTC. local_s is wall-clock seconds encoded as if UTC.
**   count 1: unique; utc[0] is the instant.
**   count 2: repeated (fall-back overlap); utc[0] < utc[1], both map to it.
**   count 0: in a gap (spring-forward); gap_end_utc is the transition
**            instant that ends the gap (the first valid instant after it),
**            off_before/off_after are the offsets either side.
** For count 1 and 2, off_before/off_after are the offsets of utc[0]/utc[last].
*/
typedef struct tz_local {
  int count;
  int64_t utc[2];
  int64_t gap_end_utc;
  int32_t off_before, off_after;
} tz_local;
void tz_local_lookup(const tz_zone *z, int64_t local_s, tz_local *r);

/*
** The "compatible" disambiguation (RFC 5545, TC39 Temporal): a gap time
** moves forward by the gap length (local_s - off_before), a repeated time
** takes the earlier instant.
*/
int64_t tz_local_to_utc(const tz_zone *z, int64_t local_s);

/*
** First instant > utc_s at which the offset changes, or INT64_MAX when
** there is none (fixed zones). Lets callers step across transitions.
*/
int64_t tz_next_transition(const tz_zone *z, int64_t utc_s);

#endif
