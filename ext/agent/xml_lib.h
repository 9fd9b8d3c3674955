/*
** xml_lib.h -- libxml2, loaded at run time (dlopen) by the first
** trigger_create_xml call, as the host loads libmicrohttpd for --http. A
** process that loads the extension and never parses XML neither maps
** libxml2 nor the ICU and compression libraries it links (measured in
** bench/README.md, "Loading the extension"), and a machine without
** libxml2 loses only trigger_create_xml, which then fails with a message
** naming the library. The functions xml_request.c calls, looked up once;
** their types are checked at build time against libxml2's headers, which
** still give the types and constants.
*/
#ifndef TRIGGERS_XML_LIB_H
#define TRIGGERS_XML_LIB_H

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stddef.h>

typedef struct xml_api {
  void (*init_parser)(void);
  xmlParserCtxtPtr (*new_parser_ctxt)(void);
  xmlDocPtr (*ctxt_read_memory)(xmlParserCtxtPtr ctxt, const char *buffer,
                                int size, const char *URL, const char *encoding,
                                int options);
  void (*free_doc)(xmlDocPtr cur);
  void (*free_parser_ctxt)(xmlParserCtxtPtr ctxt);
  xmlNodePtr (*doc_get_root_element)(const xmlDoc *doc);
  xmlChar *(*node_get_content)(const xmlNode *cur);
  xmlFreeFunc *free; /* the address of libxml2's xmlFree */
} xml_api;

/* The library's functions, loaded by the first call of the process (the
** same table afterwards; thread-safe). NULL when libxml2 or one of them
** cannot be loaded: then err holds why (the same text for every call). */
const xml_api *agent_xml_lib(char *err, size_t errlen);

#endif
