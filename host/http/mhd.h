/*
** mhd.h -- libmicrohttpd, loaded at run time (dlopen) when --http starts
** the status server. A host without --http neither needs the library
** installed nor pays for loading it and what it links (GnuTLS, p11-kit,
** nettle, ...): 1.3 ms of every start, measured (bench/README.md), a
** tenth of a `trigger-host tick` that runs one command. The functions
** http.c calls, looked up once; their types are checked at build time
** against <microhttpd.h>, which still gives the types and constants.
*/
#ifndef HOST_MHD_H
#define HOST_MHD_H

#include <microhttpd.h>

typedef struct mhd_api {
  struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port,
                                     MHD_AcceptPolicyCallback apc,
                                     void *apc_cls,
                                     MHD_AccessHandlerCallback dh, void *dh_cls,
                                     ...);
  void (*stop_daemon)(struct MHD_Daemon *daemon);
  const union MHD_DaemonInfo *(*get_daemon_info)(
      struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...);
  const union MHD_ConnectionInfo *(*get_connection_info)(
      struct MHD_Connection *connection, enum MHD_ConnectionInfoType info_type,
      ...);
  struct MHD_Response *(*response_from_buffer)(
      size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
  struct MHD_Response *(*response_with_free)(
      size_t size, void *buffer, MHD_ContentReaderFreeCallback crfc);
  enum MHD_Result (*add_header)(struct MHD_Response *response,
                                const char *header, const char *content);
  enum MHD_Result (*queue_response)(struct MHD_Connection *connection,
                                    unsigned int status_code,
                                    struct MHD_Response *response);
  void (*destroy_response)(struct MHD_Response *response);
  const char *(*lookup_value)(struct MHD_Connection *connection,
                              enum MHD_ValueKind kind, const char *key);
} mhd_api;

/* The library's functions, loaded by the first call (the same table
** afterwards); NULL with *err (free()) when the library or one of them
** cannot be loaded. Not thread-safe: called from main() before the
** daemon's thread starts. */
const mhd_api *mhd_load(char **err);

#endif
