/*
** xml_lib.c -- libxml2 loaded at the first XML parse (see xml_lib.h).
*/
#include "agent/xml_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Each function's type is the library's own, or this does not build. */
#define XML_FN(field, name)                                                   \
  _Static_assert(__builtin_types_compatible_p(                                \
                     __typeof__(&(name)), __typeof__(((xml_api *)0)->field)), \
                 #name " has another type in libxml2's headers");             \
  static const char field##_name[] = #name;

XML_FN(init_parser, xmlInitParser)
XML_FN(new_parser_ctxt, xmlNewParserCtxt)
XML_FN(ctxt_read_memory, xmlCtxtReadMemory)
XML_FN(free_doc, xmlFreeDoc)
XML_FN(free_parser_ctxt, xmlFreeParserCtxt)
XML_FN(doc_get_root_element, xmlDocGetRootElement)
XML_FN(node_get_content, xmlNodeGetContent)

static const char *const sonames[] = {"libxml2.so.2", "libxml2.so"};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static xml_api api;
static int loaded;
static char why[320]; /* the failure, kept for every later call */

/* *slot = name's address in lib; 0, or -1 with why. */
static int resolve(void *lib, const char *name, void *slot) {
  void *fn = dlsym(lib, name);
  if (!fn) {
    snprintf(why, sizeof why, "libxml2 has no %s (too old a version?)", name);
    return -1;
  }
  memcpy(slot, &fn, sizeof fn); /* POSIX: a function's address */
  return 0;
}

static void load(void) {
  void *lib = NULL;
  char first[200] = "";
  for (size_t i = 0; !lib && i < sizeof sonames / sizeof *sonames; i++) {
    lib = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    const char *e = lib ? NULL : dlerror();
    if (e && !first[0]) snprintf(first, sizeof first, "%s", e);
  }
  if (!lib) {
    snprintf(why, sizeof why,
             "XML needs libxml2 (Debian: libxml2), which cannot be loaded: %s",
             first[0] ? first : "?");
    return;
  }
  xml_api a;
  if (resolve(lib, init_parser_name, &a.init_parser) ||
      resolve(lib, new_parser_ctxt_name, &a.new_parser_ctxt) ||
      resolve(lib, ctxt_read_memory_name, &a.ctxt_read_memory) ||
      resolve(lib, free_doc_name, &a.free_doc) ||
      resolve(lib, free_parser_ctxt_name, &a.free_parser_ctxt) ||
      resolve(lib, doc_get_root_element_name, &a.doc_get_root_element) ||
      resolve(lib, node_get_content_name, &a.node_get_content) ||
      resolve(lib, "xmlFree", &a.free)) {
    dlclose(lib);
    return;
  }
  a.init_parser(); /* once per process: libxml2's globals ready */
  api = a;
  loaded = 1; /* lib stays loaded for the process's life */
}

const xml_api *agent_xml_lib(char *err, size_t errlen) {
  pthread_once(&once, load);
  if (loaded) return &api;
  snprintf(err, errlen, "%s", why);
  return NULL;
}
