/*
** http.h -- `--http ADDR` (run and serve): a read-only HTTP server beside
** the loop, on libmicrohttpd's own thread.
**
**   GET /         the status page (page.h), text/html; ?agent=, ?scope=,
**                 ?status= filter its list
**   GET /trigger/ID, /run/ID  one trigger's, one run's page (detail.h)
**   POST /login, /trigger/ID/VERB, /run/ID/VERB  with --http-token-file
**                 only: the actions (actions.h, auth.h)
**   GET /metrics  Prometheus text format 0.0.4 (metrics.h)
**   GET /health   trigger_health(now) as JSON: with one database its
**                 object as it is; with several, an object with one
**                 member per database path. 200 when every database was
**                 read, else 503 ({"error": "..."} in place of the object)
**
** HEAD is answered like GET without the body. Any other method gets 405
** (Allow: GET, HEAD; and POST with actions), any other path 404, a URI (query string included)
** longer than HTTP_URI_MAX bytes 414; an id or query value that is not
** what it should be 400 (other query arguments are ignored). At most
** --http-conns connections at once (more wait in the listen backlog until
** one closes) and --http-conns-per-ip from one client address (more are
** closed at once), each closed when a request has not arrived whole and
** been answered within --http-timeout seconds (http_guard.h) or after as
** many idle seconds; the request line and headers
** must fit in HTTP_CONN_MEMORY bytes. Every response says no-store and
** nosniff; the page's Content-Security-Policy allows only its inline
** style (no script, nothing loaded from anywhere).
**
** The server reads each database through its own read-only connection
** (readdb.h), one short read transaction per request, never the loop's
** connection: a page or a scrape never delays a claim. One thread serves
** every request in turn, so the connections need no lock; the loop's
** counters (stats.h) are shared under their own mutex.
*/
#ifndef HOST_HTTP_H
#define HOST_HTTP_H

#include "core/opts.h"

#define HTTP_URI_MAX 4096
#define HTTP_ID_MAX 1024 /* bytes of a trigger or run id in a link */
#define HTTP_CONN_MEMORY (32 * 1024)

typedef struct http_server http_server;

/* Start serving o->http for o->dbs, the databases the loop serves (their
** paths stay alive until http_stop). NULL when it cannot (logged). */
http_server *http_start(const host_opts *o);
/* Stop the thread, close the connections, forget the counters. */
void http_stop(http_server *srv);

#endif
