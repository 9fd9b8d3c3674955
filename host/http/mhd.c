/*
** mhd.c -- loading libmicrohttpd at run time (see mhd.h): its soname,
** then the development symlink, with RTLD_NOW so that a missing function
** is an error here, not a crash later.
*/
#include "http/mhd.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Each function's type is the library's own, or this does not build. */
#define MHD_FN(field, name)                                                   \
  _Static_assert(__builtin_types_compatible_p(                                \
                     __typeof__(&(name)), __typeof__(((mhd_api *)0)->field)), \
                 #name " has another type in <microhttpd.h>");                \
  static const char field##_name[] = #name;

MHD_FN(start_daemon, MHD_start_daemon)
MHD_FN(stop_daemon, MHD_stop_daemon)
MHD_FN(get_daemon_info, MHD_get_daemon_info)
MHD_FN(get_connection_info, MHD_get_connection_info)
MHD_FN(response_from_buffer, MHD_create_response_from_buffer)
MHD_FN(response_with_free, MHD_create_response_from_buffer_with_free_callback)
MHD_FN(add_header, MHD_add_response_header)
MHD_FN(queue_response, MHD_queue_response)
MHD_FN(destroy_response, MHD_destroy_response)
MHD_FN(lookup_value, MHD_lookup_connection_value)

static const char *const sonames[] = {"libmicrohttpd.so.12",
                                      "libmicrohttpd.so"};

static mhd_api api;
static int loaded;

/* *slot = name's address in lib; 0, or -1 with *err. */
static int resolve(void *lib, const char *name, void *slot, char **err) {
  void *fn = dlsym(lib, name);
  if (!fn) {
    *err = xprintf("libmicrohttpd has no %s (too old a version?)", name);
    return -1;
  }
  memcpy(slot, &fn, sizeof fn); /* POSIX: a function's address */
  return 0;
}

const mhd_api *mhd_load(char **err) {
  if (loaded) return &api;
  void *lib = NULL;
  char *why = NULL; /* the first failure's reason */
  for (size_t i = 0; !lib && i < sizeof sonames / sizeof *sonames; i++) {
    lib = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    const char *e = lib ? NULL : dlerror();
    if (e && !why) why = xstrdup(e);
  }
  if (!lib) {
    *err = xprintf("--http needs libmicrohttpd (Debian: libmicrohttpd12), "
                   "which cannot be loaded: %s",
                   why ? why : "?");
    free(why);
    return NULL;
  }
  free(why);
  mhd_api a;
  if (resolve(lib, start_daemon_name, &a.start_daemon, err) ||
      resolve(lib, stop_daemon_name, &a.stop_daemon, err) ||
      resolve(lib, get_daemon_info_name, &a.get_daemon_info, err) ||
      resolve(lib, get_connection_info_name, &a.get_connection_info, err) ||
      resolve(lib, response_from_buffer_name, &a.response_from_buffer, err) ||
      resolve(lib, response_with_free_name, &a.response_with_free, err) ||
      resolve(lib, add_header_name, &a.add_header, err) ||
      resolve(lib, queue_response_name, &a.queue_response, err) ||
      resolve(lib, destroy_response_name, &a.destroy_response, err) ||
      resolve(lib, lookup_value_name, &a.lookup_value, err)) {
    dlclose(lib);
    return NULL;
  }
  api = a;
  loaded = 1; /* lib stays loaded for the process's life */
  return &api;
}
