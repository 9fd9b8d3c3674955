/*
** xml_request.c -- parse the <response> XML contract with libxml2,
** safely. See xml_request.h for the rules.
*/
#include "agent/xml_request.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/utf8.h"

const xml_field xml_fields[XF_COUNT] = {
    {"displayName", "display_name", 0},
    {"instructions", "instructions", 0},
    {"triggerType", "trigger_type", 0},
    {"intervalMs", "interval_ms", 1},
    {"scheduledAtIso", "scheduled_at", 0},
    {"cronExpression", "cron_expression", 0},
    {"timezone", "timezone", 0},
    {"wakeMode", "wake_mode", 0},
    {"when", "when", 0},
};

/* snprintf may cut a quoted name inside a character: not at one. */
#define FAIL(c, ...)                    \
  do {                                  \
    *code = (c);                        \
    snprintf(err, errlen, __VA_ARGS__); \
    utf8_cut_tail(err);                 \
    return -1;                          \
  } while (0)

/* n bytes at s begin with lit. */
static int starts(const char *s, size_t n, const char *lit) {
  size_t k = strlen(lit);
  return n >= k && memcmp(s, lit, k) == 0;
}

/* Offset of the first lit in s[0..n), or n. */
static size_t find(const char *s, size_t n, const char *lit) {
  for (size_t i = 0; i < n; i++) {
    if (starts(s + i, n - i, lit)) return i;
  }
  return n;
}

/*
** Offset of a "<!" that opens a declaration, or -1. The document is read
** as the parser reads it: a comment (<!-- to -->), a CDATA section
** (<![CDATA[ to ]]>) or a processing instruction (<? to ?>) is skipped
** whole, so "<!DOCTYPE" inside one of them is text. Markup begins only at
** '<' (never inside a value: '<' is not allowed in text or attribute
** values). An unterminated one ends the scan; the parser refuses it.
*/
static long declaration_at(const char *s, size_t n) {
  static const struct {
    const char *open, *close;
  } skipped[] = {{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}};
  size_t i = 0;
  while (i < n) {
    size_t lt = i + find(s + i, n - i, "<");
    if (lt + 1 >= n) return -1;
    size_t k = 0, nk = sizeof skipped / sizeof skipped[0];
    while (k < nk && !starts(s + lt, n - lt, skipped[k].open)) k++;
    if (k == nk) {
      if (s[lt + 1] == '!') return (long)lt;
      i = lt + 1;
      continue;
    }
    size_t body = lt + strlen(skipped[k].open);
    size_t end = body + find(s + body, n - body, skipped[k].close);
    if (end >= n) return -1;
    i = end + strlen(skipped[k].close);
  }
  return -1;
}

static int field_of(const xmlChar *name) {
  for (int i = 0; i < XF_COUNT; i++) {
    if (xmlStrcmp(name, (const xmlChar *)xml_fields[i].element) == 0) return i;
  }
  return -1;
}

static char *trimmed_copy(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                   s[n - 1] == '\r')) {
    n--;
  }
  char *out = malloc(n + 1);
  if (out) {
    memcpy(out, s, n);
    out[n] = 0;
  }
  return out;
}

/* Whole number of ms within 2^53. */
static int valid_ms(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n > 16) return 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
  }
  return strtoll(s, NULL, 10) <= ((long long)1 << 53);
}

static int read_fields(xmlNode *root, xml_request *out, const char **code,
                       char *err, size_t errlen) {
  for (xmlNode *n = root->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    int f = field_of(n->name);
    if (f < 0) continue; /* unknown elements are ignored */
    for (xmlNode *c = n->children; c; c = c->next) {
      if (c->type == XML_ELEMENT_NODE) {
        FAIL(XML_INVALID_REQUEST,
             "element <%s> must contain text only, "
             "found <%s>",
             xml_fields[f].element, (const char *)c->name);
      }
    }
    if (out->value[f]) {
      FAIL(XML_INVALID_REQUEST, "element <%s> appears more than once",
           xml_fields[f].element);
    }
    xmlChar *text = xmlNodeGetContent(n);
    char *v = trimmed_copy(text ? (const char *)text : "");
    xmlFree(text);
    if (!v) FAIL(XML_INVALID_REQUEST, "out of memory");
    if (!*v) {
      free(v); /* empty element: not given */
      out->value[f] = NULL;
      continue;
    }
    out->value[f] = v;
    if (xml_fields[f].is_number && !valid_ms(v)) {
      FAIL(XML_INVALID_SCHEDULE,
           "element <%s>: '%.*s' is not a whole "
           "number of milliseconds in range 0-2^53",
           xml_fields[f].element, utf8_prefix(v, strlen(v), 40), v);
    }
  }
  return 0;
}

int xml_request_parse(const char *xml, size_t len, xml_request *out,
                      const char **code, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  if (len > XML_REQUEST_MAX_BYTES) {
    FAIL(XML_INVALID_REQUEST, "XML is %zu bytes, more than the %d allowed", len,
         XML_REQUEST_MAX_BYTES);
  }
  utf8_err bad;
  if (!utf8_check(xml, len, &bad)) {
    char why[UTF8_DESCRIBE_MAX];
    FAIL(XML_INVALID_REQUEST, "XML: %s",
         utf8_describe(&bad, xml, why, sizeof why));
  }
  long decl = declaration_at(xml, len);
  if (decl >= 0) {
    FAIL(XML_INVALID_REQUEST,
         "XML declarations such as <!DOCTYPE> or "
         "<!ENTITY> are not allowed (byte %ld)",
         decl);
  }
  xmlInitParser(); /* idempotent; makes libxml2's globals ready */
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (!ctxt) FAIL(XML_INVALID_REQUEST, "out of memory");
  xmlDocPtr doc = xmlCtxtReadMemory(ctxt, xml, (int)len, "request.xml", "UTF-8",
                                    XML_PARSE_NONET | XML_PARSE_NOERROR |
                                        XML_PARSE_NOWARNING);
  int rc = 0;
  if (!doc) {
    const xmlError *e = &ctxt->lastError;
    *code = XML_INVALID_REQUEST;
    snprintf(err, errlen, "malformed XML at line %d: %s", e->line,
             e->message ? e->message : "parse error");
    size_t m = strlen(err);
    while (m > 0 && (err[m - 1] == '\n' || err[m - 1] == ' ')) err[--m] = 0;
    rc = -1;
  } else if (doc->intSubset || doc->extSubset) {
    *code = XML_INVALID_REQUEST;
    snprintf(err, errlen, "a DOCTYPE is not allowed");
    rc = -1;
  } else {
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || xmlStrcmp(root->name, (const xmlChar *)"response") != 0) {
      *code = XML_INVALID_REQUEST;
      snprintf(err, errlen, "the root element must be <response>, got <%s>",
               root ? (const char *)root->name : "");
      rc = -1;
    } else {
      rc = read_fields(root, out, code, err, errlen);
    }
  }
  if (doc) xmlFreeDoc(doc);
  xmlFreeParserCtxt(ctxt);
  if (rc != 0) {
    utf8_cut_tail(err); /* a long name quoted into err */
    xml_request_free(out);
  }
  return rc;
}

void xml_request_free(xml_request *r) {
  for (int i = 0; i < XF_COUNT; i++) {
    free(r->value[i]);
    r->value[i] = NULL;
  }
}
