/*
** mcp.h -- `trigger-host mcp DB`: a Model Context Protocol server on
** stdin and stdout (docs/mcp.md). It reads one message per line
** (frame.h), answers each request in order (rpc.h: initialize, ping,
** tools/list, tools/call with the tools of tools.h), and ends on EOF,
** SIGTERM or SIGINT. stdout carries the protocol alone; the log is on
** stderr.
*/
#ifndef HOST_MCP_H
#define HOST_MCP_H

#include "core/opts.h"

/* Serve o's one database: the exit status (0 at the end of the input or
** on a signal; 3 when the database cannot be opened or stdin fails). */
int mcp_main(const host_opts *o);

#endif
