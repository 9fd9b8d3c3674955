/*
** ckpt.h -- WAL checkpoints off the loop's thread. SQLite's automatic
** checkpoint runs inside the commit that takes the WAL past 1000 pages:
** it writes the pages back into the database and fsyncs, and the run
** claimed or reported next waits for it (measured: the tail of run-mode
** latency at 200 fires/s). The host's connections turn it off; one
** background thread, with a connection of its own per database, runs a
** PASSIVE checkpoint when a connection's commit found CKPT_PAGES frames in
** the WAL (sqlite3_wal_hook -> ckpt_notify), at most every CKPT_GAP_MS per
** database. In WAL mode a checkpoint and a writer proceed together, so
** the loop never waits for one. An idle host has an idle checkpointer (it
** sleeps on a condition variable). Closing the last connection checkpoints
** as before; other processes' connections checkpoint as they always do.
** Not for --via databases (nothing local to checkpoint).
**
** A passive checkpoint writes back what the WAL held when it began; SQLite
** starts the WAL over only when a writer begins after one that left
** nothing behind. A loop that commits every few ms (--exec, a busy run)
** always wrote more meanwhile, so the WAL never started over: measured,
** 156 MB after 5,000 commands, growing for as long as the host was busy,
** and every commit appended to a longer file (6.9 us a frame appending,
** 2.4 us overwriting). So when a commit finds CKPT_LOOP_PAGES frames in
** the WAL, the loop's own connection runs the passive checkpoint right
** there, as SQLite's automatic one would (what is left after the thread's
** last one, and its fsyncs): nothing writes meanwhile, and the next
** transaction starts the WAL over. A busy host's WAL stays under about
** CKPT_LOOP_PAGES pages, for a pause of the loop (a few ms) once per that
** many pages instead of per CKPT_PAGES.
*/
#ifndef HOST_CKPT_H
#define HOST_CKPT_H

#include "db/hostdb.h"

#define CKPT_PAGES 1000
#define CKPT_LOOP_PAGES (4 * CKPT_PAGES)
#define CKPT_GAP_MS 100

typedef struct ckpt ckpt;
typedef struct ckpt_slot ckpt_slot;

/* Start the checkpointer for the local databases of dbs and turn their
** automatic checkpoints off. NULL when there is none (all --via) or the
** thread cannot start: then SQLite's automatic checkpoints stay on. */
ckpt *ckpt_start(hostdb *dbs, int ndbs);
/* Stop and join the thread, close its connections (NULL: nothing). */
void ckpt_stop(ckpt *c);
/* From a connection's wal hook: h's WAL holds frames frames. */
void ckpt_notify(ckpt_slot *s, int frames);

#endif
