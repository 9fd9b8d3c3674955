/*
** dbfile.h -- what a database argument of trigger-host holds, looked at
** before SQLite opens it: the host never writes into a file that is not
** a SQLite database (docs/host.md, "Files that are not databases").
**
**   - a missing file: fine here (opts.c refused it unless --create, and
**     SQLite creates it then);
**   - an empty file (0 bytes): a database only with --create, which makes
**     it one; without, it is refused (SQLite would take it for an empty
**     database and the host would write its schema into it);
**   - a file shorter than SQLite's 100-byte header, or one that does not
**     start with "SQLite format 3\0": refused, never opened.
**
** The rest of the header and the schema are SQLite's to judge: hostdb.c
** reads the schema before its first write (journal_mode=WAL writes the
** header), so a damaged database is refused with SQLite's reason and
** nothing written either.
*/
#ifndef HOST_DBFILE_H
#define HOST_DBFILE_H

/* 0 when path may be opened (create: --create was given); else -1 and
** *why, a static text saying what the file is instead. Not thread-safe
** (strerror): called by main() before the threads start. */
int dbfile_check(const char *path, int create, const char **why);

#endif
