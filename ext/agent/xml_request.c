/*
** xml_request.c -- parse the <response> XML contract with libxml2
** (loaded at the first parse: xml_lib.h), safely. See xml_request.h for the rules. The input is scanned twice
** before libxml2 sees it, with one reader of markup (markup_skip): for a
** declaration, and for the span of the first <response> element.
*/
#include "agent/xml_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/xml_lib.h"
#include "agent/xml_repair.h"
#include "text/spelling.h"
#include "text/utf8.h"

/* How a field's text is read. */
enum { XK_TEXT, XK_MS, XK_BOOL };

/* Every request field (fn_create.c's JSON keys), by its element. */
static const struct {
  const char *element; /* the contract's element name (camelCase) */
  const char *key;     /* the request key: a triggers column, "when" ... */
  int kind;            /* XK_ */
} xml_fields[] = {
    {"triggerId", "trigger_id", XK_TEXT},
    {"displayName", "display_name", XK_TEXT},
    {"instructions", "instructions", XK_TEXT},
    {"triggerType", "trigger_type", XK_TEXT},
    {"intervalMs", "interval_ms", XK_MS},
    {"scheduledAtIso", "scheduled_at", XK_TEXT},
    {"cronExpression", "cron_expression", XK_TEXT},
    {"rrule", "rrule", XK_TEXT},
    {"calendar", "calendar", XK_TEXT},
    {"calendarPolicy", "calendar_policy", XK_TEXT},
    {"timezone", "timezone", XK_TEXT},
    {"startAt", "start_at", XK_TEXT},
    {"endAt", "end_at", XK_TEXT},
    {"wakeMode", "wake_mode", XK_TEXT},
    {"enabled", "enabled", XK_BOOL},
    {"maxRuns", "max_runs", XK_TEXT},
    {"misfirePolicy", "misfire_policy", XK_TEXT},
    {"overlapPolicy", "overlap_policy", XK_TEXT},
    {"maxAttempts", "max_attempts", XK_TEXT},
    {"backoffMs", "backoff_ms", XK_TEXT},
    {"jitterMs", "jitter_ms", XK_TEXT},
    {"windowMs", "window_ms", XK_TEXT},
    {"pauseAfterFailures", "pause_after_failures", XK_TEXT},
    {"metadata", "metadata", XK_TEXT},
    {"when", "when", XK_TEXT},
    {"whenText", "when_text", XK_TEXT},
    {"sourceText", "source_text", XK_TEXT},
    {"scope", "scope", XK_TEXT},
};
#define XML_FIELDS ((int)(sizeof xml_fields / sizeof xml_fields[0]))

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
** as the parser reads it: a comment, CDATA section or processing
** instruction is skipped whole (markup_skip), so "<!DOCTYPE" inside one
** of them is text. Markup begins only at '<' (never inside a value: '<' is
** not allowed in text or attribute values). An unterminated one ends the
** scan; the parser refuses it.
*/
static long declaration_at(const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t lt = i + find(s + i, n - i, "<");
    if (lt + 1 >= n) return -1;
    size_t skip = agent_xml_markup_skip(s, n, lt);
    if (skip == n) return -1;
    if (!skip && s[lt + 1] == '!') return (long)lt;
    i = skip ? skip : lt + 1;
  }
  return -1;
}

/* Length of the tag name at s[i..n): up to white space, '/', '>' or '<'. */
static size_t name_len(const char *s, size_t n, size_t i) {
  size_t k = i;
  while (k < n && !strchr(" \t\r\n/><", s[k])) k++;
  return k - i;
}

/* s[lt] opens a start tag (close 0) or an end tag (close 1) whose name is
** "response" in any spelling. */
static int response_tag(const char *s, size_t n, size_t lt, int close) {
  size_t at = lt + 1 + (size_t)close;
  if (at > n || (close && s[lt + 1] != '/')) return 0;
  size_t len = name_len(s, n, at);
  return len > 0 && spelling_same_n(s + at, len, "response");
}

/* The end (after its '>') of the <response> element whose start tag
** opens at lt, nested <response> elements counted and comments, CDATA
** and processing instructions skipped; 0 when it is not closed. */
static size_t element_end(const char *s, size_t n, size_t lt) {
  int depth = 0;
  for (size_t i = lt; i < n;) {
    size_t next = s[i] == '<' ? agent_xml_markup_skip(s, n, i) : 0;
    if (next == n) return 0;
    if (next || s[i] != '<') {
      i = next ? next : i + 1;
      continue;
    }
    size_t gt = agent_xml_tag_end(s, n, i);
    if (gt == n) return 0;
    if (response_tag(s, n, i, 1)) {
      depth--;
    } else if (response_tag(s, n, i, 0) && s[gt - 1] != '/') {
      depth++;
    }
    if (depth <= 0) return gt + 1;
    i = gt + 1;
  }
  return 0;
}

/* The end of a <think> (or <thinking>) block opening at lt: the offset
** after its end tag, or 0 when none opens there or it is not closed. */
static size_t think_end(const char *s, size_t n, size_t lt) {
  static const char *const words[] = {"think", "thinking"};
  size_t len = name_len(s, n, lt + 1);
  for (size_t w = 0; len && w < sizeof words / sizeof words[0]; w++) {
    if (!spelling_same_n(s + lt + 1, len, words[w])) continue;
    for (size_t i = lt + 1 + len; i + 1 < n; i++) {
      if (s[i] != '<' || s[i + 1] != '/') continue;
      size_t k = name_len(s, n, i + 2);
      if (k && spelling_same_n(s + i + 2, k, words[w])) {
        size_t gt = agent_xml_tag_end(s, n, i);
        return gt < n ? gt + 1 : 0;
      }
    }
  }
  return 0;
}

/*
** The span [*start, *end) of the <response> element in s a person would
** read: the first one when it is complete (from its start tag to the end
** tag that closes it, nested ones counted), else the last complete one
** (prose that mentions "<response>" before the real element); a <think>
** block before it is passed over, and comments, CDATA sections and
** processing instructions are read structurally (agent_xml_markup_skip).
** With none complete: from the first start tag to the end of the input
** (the parser says where it breaks); with no start tag, or a construct
** before it not closed, the whole input.
*/
static void response_span(const char *s, size_t n, size_t *start, size_t *end) {
  size_t first = n, first_end = 0, last = n, last_end = 0;
  *start = 0;
  *end = n;
  for (size_t i = 0; i < n;) {
    size_t next = s[i] == '<' ? agent_xml_markup_skip(s, n, i) : 0;
    if (next == n) break;
    if (!next && s[i] == '<') next = think_end(s, n, i);
    if (!next && s[i] == '<' && response_tag(s, n, i, 0)) {
      size_t e = element_end(s, n, i);
      if (first == n) {
        first = i;
        first_end = e;
        if (e) break; /* the first is complete: it is the one */
      }
      if (e) {
        last = i;
        last_end = e;
      }
      size_t gt = agent_xml_tag_end(s, n, i);
      next = e ? e : gt < n ? gt + 1 : n;
    }
    i = next ? next : i + 1;
  }
  if (first < n && first_end) {
    *start = first;
    *end = first_end;
  } else if (last < n) {
    *start = last;
    *end = last_end;
  } else if (first < n) {
    *start = first;
  }
}

/* The field an element name is, in any spelling of its element or its
** key, or -1. */
static int field_of(const xmlChar *name) {
  for (int i = 0; i < XML_FIELDS; i++) {
    if (spelling_same((const char *)name, xml_fields[i].element) ||
        spelling_same((const char *)name, xml_fields[i].key)) {
      return i;
    }
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

/* Whole number of ms within 2^53 (s is not empty: read_fields). */
static int valid_ms(const char *s) {
  size_t n = strlen(s);
  if (n > 16) return 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
  }
  return strtoll(s, NULL, 10) <= ((long long)1 << 53);
}

/* <enabled>: true/yes as "1", false/no as "0", else as written. */
static const char *bool_text(const char *v) {
  static const char *const words[] = {"true", "yes", "false", "no", 0};
  int k = spelling_find(v, words);
  return k < 0 ? v : k < 2 ? "1" : "0";
}

/* Append an item; key and value are copied. 0, or -1 out of memory. */
static int add_item(xml_request *out, const char *key, const char *value,
                    int is_number) {
  xml_item *grown = realloc(out->item, (size_t)(out->n + 1) * sizeof *grown);
  if (!grown) return -1;
  out->item = grown;
  xml_item *it = &out->item[out->n];
  it->key = strdup(key);
  it->value = value ? strdup(value) : NULL;
  it->is_number = is_number;
  if (!it->key || (value && !it->value)) {
    free(it->key);
    free(it->value);
    return -1;
  }
  out->n++;
  return 0;
}

/* The text of element n, trimmed (malloc'd), or NULL out of memory. */
static char *element_text(const xml_api *x, xmlNode *n) {
  xmlChar *text = x->node_get_content(n);
  char *v = trimmed_copy(text ? (const char *)text : "");
  if (text) (*x->free)(text);
  return v;
}

static int has_child_element(xmlNode *n) {
  for (xmlNode *c = n->children; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) return 1;
  }
  return 0;
}

static int read_fields(const xml_api *x, xmlNode *root, xml_request *out,
                       const char **code, char *err, size_t errlen) {
  const char *seen[XML_FIELDS] = {0};
  for (xmlNode *n = root->children; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const char *name = (const char *)n->name;
    int f = field_of(n->name);
    if (f < 0 && has_child_element(n)) {
      /* no field: passed on by name, to be listed as ignored */
      if (add_item(out, name, NULL, 0))
        FAIL(XML_INVALID_REQUEST, "out of memory");
      continue;
    }
    if (f >= 0 && has_child_element(n)) {
      xmlNode *c = n->children;
      while (c->type != XML_ELEMENT_NODE) c = c->next;
      FAIL(XML_INVALID_REQUEST,
           "element <%s> must contain text only, found <%s>", name,
           (const char *)c->name);
    }
    if (f >= 0 && seen[f]) {
      FAIL(XML_INVALID_REQUEST,
           "element <%s> appears more than once (as <%s> too)", name, seen[f]);
    }
    char *v = element_text(x, n);
    if (!v) FAIL(XML_INVALID_REQUEST, "out of memory");
    int kind = f < 0 ? XK_TEXT : xml_fields[f].kind;
    if (*v && kind == XK_MS && !valid_ms(v)) {
      *code = XML_INVALID_SCHEDULE;
      snprintf(err, errlen,
               "element <%s>: '%.*s' is not a whole number of milliseconds in "
               "range 0-2^53",
               name, utf8_prefix(v, strlen(v), 40), v);
      free(v);
      return -1;
    }
    if (f >= 0 && *v) seen[f] = name;
    /* an empty element: not given */
    int bad = *v && add_item(out, f < 0 ? name : xml_fields[f].key,
                             kind == XK_BOOL ? bool_text(v) : v, kind == XK_MS);
    free(v);
    if (bad) FAIL(XML_INVALID_REQUEST, "out of memory");
  }
  return 0;
}

/* Where libxml2's error e is in the reply: its line and column in the
** repaired text r, mapped back through r->from to the reply's offset. */
static void error_place(const xmlError *e, const xml_repaired *r,
                        const char *xml, size_t len, int *line, int *col,
                        size_t *byte) {
  size_t off = 0, n = r->text && r->from ? r->len : 0;
  for (int l = 1; off < n && l < e->line; off++) {
    if (r->text[off] == '\n') l++;
  }
  off += e->int2 > 0 ? (size_t)e->int2 - 1 : 0;
  *byte = off < n ? r->from[off] : len;
  agent_xml_line_col(xml, len, *byte, line, col);
}

int agent_xml_request_parse(const char *xml, size_t len, xml_request *out,
                            const char **code, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  const xml_api *x = agent_xml_lib(err, errlen);
  if (!x) {
    *code = NULL;
    return -2;
  }
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
  size_t start, end;
  response_span(xml, len, &start, &end);
  /* The whole input, then the span alone (an unclosed comment in the
  ** prose before it ends the first scan early). */
  long decl = declaration_at(xml, len);
  if (decl < 0) {
    decl = declaration_at(xml + start, end - start);
    if (decl >= 0) decl += (long)start;
  }
  if (decl >= 0) {
    FAIL(XML_INVALID_REQUEST,
         "XML declarations such as <!DOCTYPE> or "
         "<!ENTITY> are not allowed (byte %ld)",
         decl);
  }
  xml_repaired rep;
  if (agent_xml_repair(xml, len, start, end, &rep) != 0) {
    FAIL(XML_INVALID_REQUEST, "out of memory");
  }
  xmlParserCtxtPtr ctxt = x->new_parser_ctxt();
  if (!ctxt) {
    agent_xml_repaired_free(&rep);
    FAIL(XML_INVALID_REQUEST, "out of memory");
  }
  xmlDocPtr doc = x->ctxt_read_memory(
      ctxt, rep.text ? rep.text : "", (int)rep.len, "request.xml", "UTF-8",
      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  int rc = 0;
  if (!doc) {
    const xmlError *e = &ctxt->lastError;
    int line, col;
    size_t byte;
    error_place(e, &rep, xml, len, &line, &col, &byte);
    *code = XML_INVALID_REQUEST;
    snprintf(err, errlen, "malformed XML at line %d, column %d (byte %zu): %s",
             line, col, byte, e->message ? e->message : "parse error");
    size_t m = strlen(err);
    while (m > 0 && (err[m - 1] == '\n' || err[m - 1] == ' ')) err[--m] = 0;
    rc = -1;
  } else if (doc->intSubset || doc->extSubset) {
    *code = XML_INVALID_REQUEST;
    snprintf(err, errlen, "a DOCTYPE is not allowed");
    rc = -1;
  } else {
    xmlNode *root = x->doc_get_root_element(doc);
    if (!root || !spelling_same((const char *)root->name, "response")) {
      *code = XML_INVALID_REQUEST;
      snprintf(err, errlen, "the root element must be <response>, got <%s>",
               root ? (const char *)root->name : "");
      rc = -1;
    } else {
      rc = read_fields(x, root, out, code, err, errlen);
    }
  }
  if (doc) x->free_doc(doc);
  x->free_parser_ctxt(ctxt);
  agent_xml_repaired_free(&rep);
  if (rc != 0) {
    utf8_cut_tail(err); /* a long name quoted into err */
    agent_xml_request_free(out);
  }
  return rc;
}

void agent_xml_request_free(xml_request *r) {
  for (int i = 0; i < r->n; i++) {
    free(r->item[i].key);
    free(r->item[i].value);
  }
  free(r->item);
  r->item = NULL;
  r->n = 0;
}
