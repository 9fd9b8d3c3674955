/*
** http_guard.h -- the status server's deadline on a slow client: a
** request must arrive whole, and its answer be sent, within --http-timeout
** seconds (default 10) of the connection's start or of the end of its
** previous request. libmicrohttpd's own timeout counts only idle time, so
** a client sending one header line every few seconds kept its connection
** forever, and 64 of them held every slot of the server: /health never
** answered (docs/host.md, status server).
**
** A thread of its own sleeps until the earliest deadline and shuts down
** (shutdown(2), both ways) the socket of each connection past it;
** libmicrohttpd sees the socket end and closes the connection itself, on
** its own thread, as for a client that went away.
**
** The connections are tracked from libmicrohttpd's callbacks (http.c):
** http_guard_opened (MHD_CONNECTION_NOTIFY_STARTED), http_guard_request_done
** (MHD_OPTION_NOTIFY_COMPLETED: a keep-alive connection's next request
** gets a deadline of its own) and http_guard_closed
** (MHD_CONNECTION_NOTIFY_CLOSED, which libmicrohttpd calls before it
** closes the socket): under the guard's mutex a tracked socket is never
** one that was closed and reused.
*/
#ifndef HOST_HTTP_GUARD_H
#define HOST_HTTP_GUARD_H

typedef struct http_guard http_guard;
typedef struct http_guard_conn http_guard_conn;

/* Start the thread; timeout_s >= 1. NULL when it cannot start. */
http_guard *http_guard_start(int timeout_s);
/* Stop and join the thread, forget what is tracked (after the daemon
** stopped: no callback comes any more). NULL: nothing. */
void http_guard_stop(http_guard *g);
/* A connection on socket fd opened: its deadline starts. The result is
** the connection's handle (its socket context). */
http_guard_conn *http_guard_opened(http_guard *g, int fd);
/* A request of c was answered: the next one's deadline starts. */
void http_guard_request_done(http_guard *g, http_guard_conn *c);
/* c closed (NULL: never opened): forgotten, its socket left alone. */
void http_guard_closed(http_guard *g, http_guard_conn *c);

#endif
