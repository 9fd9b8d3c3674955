/*
** xml_request.c -- parse the <response> XML contract with libxml2,
** safely. See xml_request.h for the rules. The input is scanned twice
** before libxml2 sees it, with one reader of markup (markup_skip): for a
** declaration, and for the span of the first <response> element.
*/
#include "agent/xml_request.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
** The end of the comment (<!-- to -->), CDATA section (<![CDATA[ to ]]>)
** or processing instruction (<? to ?>) that opens at s[lt], which is '<':
** the offset after it, n when it is not closed, or 0 when none opens
** there. Inside one, "<!DOCTYPE" or "</response>" is text.
*/
static size_t markup_skip(const char *s, size_t n, size_t lt) {
  static const struct {
    const char *open, *close;
  } skipped[] = {{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}};
  for (size_t k = 0; k < sizeof skipped / sizeof skipped[0]; k++) {
    if (!starts(s + lt, n - lt, skipped[k].open)) continue;
    size_t body = lt + strlen(skipped[k].open);
    size_t end = body + find(s + body, n - body, skipped[k].close);
    return end >= n ? n : end + strlen(skipped[k].close);
  }
  return 0;
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
    size_t skip = markup_skip(s, n, lt);
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

/* The offset of the '>' that ends the tag opening at lt (quoted attribute
** values skipped), or n. */
static size_t tag_end(const char *s, size_t n, size_t lt) {
  char quote = 0;
  for (size_t i = lt + 1; i < n; i++) {
    if (quote) {
      if (s[i] == quote) quote = 0;
    } else if (s[i] == '"' || s[i] == '\'') {
      quote = s[i];
    } else if (s[i] == '>') {
      return i;
    }
  }
  return n;
}

/*
** The span [*start, *end) of the first <response> element in s: from the
** first start tag named response (in any spelling) to the end tag that
** closes it, nested <response> elements counted, read structurally
** (markup_skip's constructs skipped, before the element too); to the end
** of the input when it is not closed, and the whole input when there is
** no such element or a construct before it is not closed (the parser
** refuses those).
*/
static void response_span(const char *s, size_t n, size_t *start, size_t *end) {
  *start = 0;
  *end = n;
  int depth = 0;
  size_t lt = find(s, n, "<");
  while (lt < n) {
    size_t next = markup_skip(s, n, lt);
    if (next == n) return;
    int open = !next && response_tag(s, n, lt, 0);
    if (!next && !depth && !open) {
      next = lt + 1; /* prose, or other markup before the element */
    } else if (!next) {
      if (!depth) *start = lt;
      size_t gt = tag_end(s, n, lt);
      if (gt == n) return;
      if (response_tag(s, n, lt, 1)) {
        depth--;
      } else if (open && s[gt - 1] != '/') {
        depth++;
      }
      if (depth == 0) {
        *end = gt + 1;
        return;
      }
      next = gt + 1;
    }
    lt = next + find(s + next, n - next, "<");
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
static char *element_text(xmlNode *n) {
  xmlChar *text = xmlNodeGetContent(n);
  char *v = trimmed_copy(text ? (const char *)text : "");
  xmlFree(text);
  return v;
}

static int has_child_element(xmlNode *n) {
  for (xmlNode *c = n->children; c; c = c->next) {
    if (c->type == XML_ELEMENT_NODE) return 1;
  }
  return 0;
}

static int read_fields(xmlNode *root, xml_request *out, const char **code,
                       char *err, size_t errlen) {
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
    char *v = element_text(n);
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

/* A copy of the n bytes at s with everything outside [start, end) made
** blank, its line breaks kept: the parser sees the element alone and its
** line numbers count in the whole reply. malloc'd, or NULL. */
static char *blank_outside(const char *s, size_t n, size_t start, size_t end) {
  char *copy = malloc(n ? n : 1);
  if (!copy) return NULL;
  for (size_t i = 0; i < n; i++) {
    copy[i] = (i >= start && i < end) || s[i] == '\n' ? s[i] : ' ';
  }
  return copy;
}

int agent_xml_request_parse(const char *xml, size_t len, xml_request *out,
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
  char *element = NULL;
  if ((start > 0 || end < len) &&
      !(element = blank_outside(xml, len, start, end))) {
    FAIL(XML_INVALID_REQUEST, "out of memory");
  }
  xmlInitParser(); /* idempotent; makes libxml2's globals ready */
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (!ctxt) {
    free(element);
    FAIL(XML_INVALID_REQUEST, "out of memory");
  }
  xmlDocPtr doc = xmlCtxtReadMemory(
      ctxt, element ? element : xml, (int)len, "request.xml", "UTF-8",
      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  free(element);
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
    if (!root || !spelling_same((const char *)root->name, "response")) {
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
