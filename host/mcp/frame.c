/*
** frame.c -- lines in and out of the MCP server (see frame.h). One buffer
** holds the unread bytes; a line is returned in place (its newline
** turned into a NUL), so a message is copied only when the buffer is
** compacted for the next read. The part already searched for a newline
** is remembered, so a line that arrives in many pieces is searched once.
*/
#include "mcp/frame.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/sig.h"
#include "core/util.h"

#define FRAME_READ (64 * 1024) /* bytes asked of one read() */

struct frame_in {
  int fd;
  char *buf; /* cap bytes: a whole line, a read's worth, a NUL */
  size_t cap;
  size_t off, len; /* the unread bytes: buf[off .. off + len) */
  size_t scanned;  /* of them, known to hold no newline */
  int eof;
  char head[FRAME_HEAD_KEEP + 1]; /* an overlong line's first bytes */
};

frame_in *frame_in_new(int fd) {
  frame_in *in = xmalloc(sizeof *in);
  memset(in, 0, sizeof *in);
  in->fd = fd;
  in->cap = FRAME_LINE_MAX + FRAME_READ + 1;
  in->buf = xmalloc(in->cap);
  return in;
}

void frame_in_free(frame_in *in) {
  if (!in) return;
  free(in->buf);
  free(in);
}

/* Until fd has something to say (bytes, EOF or an error: read() tells)
** or a stop signal came: 0, 1 (stop) or -1 (errno). */
static int wait_input(frame_in *in) {
  for (;;) {
    if (sig_stop_count() > 0) return 1;
    struct pollfd p[2] = {{in->fd, POLLIN, 0}, {sig_fd(), POLLIN, 0}};
    int r = poll(p, 2, -1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (p[1].revents) sig_drain();
    if (p[0].revents && sig_stop_count() == 0) return 0;
  }
}

/* More bytes after the unread ones (compacted to the buffer's start), or
** in->eof: 0; 1 on a stop signal; -1 on a read error. */
static int fill(frame_in *in) {
  if (in->off) {
    memmove(in->buf, in->buf + in->off, in->len);
    in->off = 0;
  }
  for (;;) {
    int w = wait_input(in);
    if (w) return w;
    size_t room = in->cap - 1 - in->len;
    ssize_t r =
        read(in->fd, in->buf + in->len, room < FRAME_READ ? room : FRAME_READ);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (r < 0) return -1;
    if (r == 0) in->eof = 1;
    in->len += (size_t)r;
    return 0;
  }
}

/* The first k unread bytes as the line (a newline after them when nl). */
static int take_line(frame_in *in, frame_line *line, size_t k, int nl) {
  char *p = in->buf + in->off;
  size_t used = k + (nl ? 1 : 0);
  p[k] = 0; /* the newline's place, or the byte the buffer keeps free */
  if (k && p[k - 1] == '\r') p[--k] = 0;
  line->p = p;
  line->n = k;
  in->off += used;
  in->len -= used;
  in->scanned = 0;
  return 0;
}

/* Keep the last FRAME_TAIL_KEEP bytes of what line->tail held and s[0..n). */
static void keep_tail(frame_line *line, const char *s, size_t n) {
  if (n >= FRAME_TAIL_KEEP) {
    memcpy(line->tail, s + n - FRAME_TAIL_KEEP, FRAME_TAIL_KEEP);
    line->ntail = FRAME_TAIL_KEEP;
    return;
  }
  size_t keep =
      line->ntail + n > FRAME_TAIL_KEEP ? FRAME_TAIL_KEEP - n : line->ntail;
  memmove(line->tail, line->tail + line->ntail - keep, keep);
  memcpy(line->tail + keep, s, n);
  line->ntail = keep + n;
}

/* An overlong line (the unread bytes are its start): its head kept, the
** rest read past up to its newline or EOF. */
static int skip_line(frame_in *in, frame_line *line) {
  memcpy(in->head, in->buf + in->off, FRAME_HEAD_KEEP);
  in->head[FRAME_HEAD_KEEP] = 0;
  line->too_long = 1;
  for (;;) {
    char *p = in->buf + in->off;
    char *nl = memchr(p, '\n', in->len);
    size_t take = nl ? (size_t)(nl - p) : in->len;
    keep_tail(line, p, take);
    line->total += take;
    if (nl) {
      in->off += take + 1;
      in->len -= take + 1;
      break;
    }
    in->off = in->len = 0;
    if (in->eof) break;
    int rc = fill(in);
    if (rc) return rc;
  }
  in->scanned = 0;
  if (line->ntail && line->tail[line->ntail - 1] == '\r') {
    line->ntail--;
    line->total--;
  }
  line->p = in->head;
  line->n = FRAME_HEAD_KEEP;
  return 0;
}

int frame_read(frame_in *in, frame_line *line) {
  memset(line, 0, sizeof *line);
  for (;;) {
    char *p = in->buf + in->off;
    char *nl = memchr(p + in->scanned, '\n', in->len - in->scanned);
    if (nl) {
      size_t k = (size_t)(nl - p), body = k - (k && p[k - 1] == '\r');
      return body > FRAME_LINE_MAX ? skip_line(in, line)
                                   : take_line(in, line, k, 1);
    }
    in->scanned = in->len;
    if (in->len > FRAME_LINE_MAX) return skip_line(in, line);
    if (in->eof) return in->len ? take_line(in, line, in->len, 0) : 1;
    int rc = fill(in);
    if (rc) return rc;
  }
}

int frame_write(const char *s, size_t n) {
  struct iovec v[2] = {{(void *)s, n}, {"\n", 1}};
  struct iovec *at = v;
  int left = 2;
  while (left > 0) {
    ssize_t w = writev(STDOUT_FILENO, at, left);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -1;
    while (left > 0 && (size_t)w >= at->iov_len) {
      w -= (ssize_t)at->iov_len;
      at++;
      left--;
    }
    if (left > 0) {
      at->iov_base = (char *)at->iov_base + w;
      at->iov_len -= (size_t)w;
    }
  }
  return 0;
}
