/*
** frame.h -- MCP's stdio transport: one JSON-RPC message per line
** (newline-delimited, no newline inside a message), read from a
** descriptor with a bound on a line's length, and written to stdout
** whole. A line longer than the bound is never held: its first bytes
** and its last are kept (where a message's id usually is, rpc.h), the
** rest read past, and the next line read as usual (docs/mcp.md#limits).
** Reading waits on the descriptor and on the signal self-pipe (core/sig.h)
** at once, so SIGTERM ends a wait at once.
*/
#ifndef HOST_FRAME_H
#define HOST_FRAME_H

#include <stddef.h>

/* The longest message read (its newline not counted): 1 MiB. */
#define FRAME_LINE_MAX (1024 * 1024)
/* What an overlong line keeps of its start and of its end. */
#define FRAME_HEAD_KEEP 4096
#define FRAME_TAIL_KEEP 64

typedef struct frame_line {
  const char *p; /* the line (without its "\n" or "\r\n"), NUL-terminated;
                    an overlong line's first FRAME_HEAD_KEEP bytes */
  size_t n;
  int too_long;               /* the line was longer than FRAME_LINE_MAX */
  size_t total;               /* too_long: its length */
  char tail[FRAME_TAIL_KEEP]; /* too_long: its last bytes */
  size_t ntail;
} frame_line;

typedef struct frame_in frame_in;

/* A reader of fd (it does not close it). */
frame_in *frame_in_new(int fd);
void frame_in_free(frame_in *in);
/* The next line into *line (valid until the next call): 0; 1 when the
** input has ended (EOF, or a SIGTERM / SIGINT was received); -1 on a
** read error (errno). A last line without its newline is a line. */
int frame_read(frame_in *in, frame_line *line);

/* s[0..n) and a newline written to stdout, whole (n has no newline): 0,
** or -1 (stdout closed: the client is gone). */
int frame_write(const char *s, size_t n);

#endif
