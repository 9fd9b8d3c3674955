/*
** xml_repair.c -- the reply's text made XML (xml_repair.h): one pass
** over the <response> element, copying markup and repairing text.
*/
#include "agent/xml_repair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n bytes at s begin with lit. */
static int begins(const char *s, size_t n, const char *lit) {
  size_t k = strlen(lit);
  return n >= k && memcmp(s, lit, k) == 0;
}

size_t agent_xml_markup_skip(const char *s, size_t n, size_t lt) {
  static const struct {
    const char *open, *close;
  } skipped[] = {{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}};
  for (size_t k = 0; k < sizeof skipped / sizeof skipped[0]; k++) {
    if (!begins(s + lt, n - lt, skipped[k].open)) continue;
    size_t i = lt + strlen(skipped[k].open);
    while (i < n && !begins(s + i, n - i, skipped[k].close)) i++;
    return i >= n ? n : i + strlen(skipped[k].close);
  }
  return 0;
}

size_t agent_xml_tag_end(const char *s, size_t n, size_t lt) {
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

/* HTML's named entities a model writes, by their code point (nbsp is a
** plain space: a person reads one). XML's own five are kept as written. */
static const struct {
  const char *name;
  int cp;
} html_entities[] = {
    {"nbsp", ' '},   {"ndash", 8211}, {"mdash", 8212}, {"hellip", 8230},
    {"lsquo", 8216}, {"rsquo", 8217}, {"ldquo", 8220}, {"rdquo", 8221},
    {"laquo", 171},  {"raquo", 187},  {"bull", 8226},  {"middot", 183},
    {"copy", 169},   {"reg", 174},    {"trade", 8482}, {"euro", 8364},
    {"pound", 163},  {"deg", 176},    {"times", 215},  {"eacute", 233},
    {"egrave", 232}, {"agrave", 224}, {"aacute", 225}, {"ccedil", 231},
    {"uuml", 252},   {"ouml", 246},   {"auml", 228},   {"szlig", 223},
    {"ntilde", 241}, {"iacute", 237}, {"oacute", 243}, {"uacute", 250},
};

/* The length of a name at s[0..n): letters and digits, a letter first. */
static size_t ref_name(const char *s, size_t n) {
  size_t k = 0;
  while (k < n && k < 32 &&
         ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z') ||
          (k > 0 && s[k] >= '0' && s[k] <= '9')))
    k++;
  return k;
}

/* A character reference at s[0..n) (s[0] is '&'): "&#10;" or "&#xA;";
** its length, or 0. */
static size_t char_ref(const char *s, size_t n) {
  size_t k = 2;
  if (n < 3 || s[1] != '#') return 0;
  int hex = s[2] == 'x';
  k += (size_t)hex;
  size_t digits = k;
  while (k < n && ((s[k] >= '0' && s[k] <= '9') ||
                   (hex && ((s[k] >= 'a' && s[k] <= 'f') ||
                            (s[k] >= 'A' && s[k] <= 'F')))))
    k++;
  return k > digits && k < n && s[k] == ';' ? k + 1 : 0;
}

/* The growing result. */
typedef struct out_buf {
  xml_repaired *r;
  size_t cap;
  int oom;
} out_buf;

static void put(out_buf *o, const char *t, size_t k, size_t from) {
  if (o->oom) return;
  if (o->r->len + k > o->cap || !o->r->text) {
    size_t cap = (o->cap + k) * 2 + 64;
    char *text = realloc(o->r->text, cap);
    if (text) o->r->text = text;
    size_t *map = realloc(o->r->from, cap * sizeof *map);
    if (map) o->r->from = map;
    if (!text || !map) {
      o->oom = 1;
      return;
    }
    o->cap = cap;
  }
  for (size_t i = 0; i < k; i++) {
    o->r->text[o->r->len] = t[i];
    o->r->from[o->r->len++] = from;
  }
}

/* The '&' at s[i]: copied when it begins a reference XML reads, else
** repaired. Returns the bytes of s used. */
static size_t ampersand(out_buf *o, const char *s, size_t n, size_t i) {
  size_t k = char_ref(s + i, n - i);
  if (k) {
    put(o, s + i, k, i);
    return k;
  }
  size_t name = ref_name(s + i + 1, n - i - 1);
  if (name && i + 1 + name < n && s[i + 1 + name] == ';') {
    static const char *const xml_names[] = {"amp", "lt", "gt", "quot", "apos"};
    for (size_t x = 0; x < sizeof xml_names / sizeof xml_names[0]; x++) {
      if (strlen(xml_names[x]) == name &&
          memcmp(s + i + 1, xml_names[x], name) == 0) {
        put(o, s + i, name + 2, i);
        return name + 2;
      }
    }
    for (size_t h = 0; h < sizeof html_entities / sizeof html_entities[0];
         h++) {
      if (strlen(html_entities[h].name) == name &&
          memcmp(s + i + 1, html_entities[h].name, name) == 0) {
        char ref[16];
        int len = snprintf(ref, sizeof ref, "&#%d;", html_entities[h].cp);
        put(o, ref, (size_t)len, i);
        return name + 2;
      }
    }
  }
  put(o, "&amp;", 5, i); /* text: "Tom & Jerry", "&foo;" */
  return 1;
}

/* s[lt] is '<' and can begin markup: a name's first character, '/', '!'
** or '?' follows. */
static int opens_markup(const char *s, size_t n, size_t lt) {
  if (lt + 1 >= n) return 1; /* a '<' at the end: the parser says so */
  char c = s[lt + 1];
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == ':' || c == '/' || c == '!' || c == '?' ||
         (unsigned char)c >= 0x80;
}

int agent_xml_repair(const char *s, size_t n, size_t start, size_t end,
                     xml_repaired *out) {
  memset(out, 0, sizeof *out);
  out_buf o = {out, 0, 0};
  put(&o, "", 0, 0); /* text is never NULL */
  for (size_t i = 0; i < start; i++) put(&o, s[i] == '\n' ? "\n" : " ", 1, i);
  for (size_t i = start; i < end;) {
    size_t skip = s[i] == '<' ? agent_xml_markup_skip(s, end, i) : 0;
    if (skip) { /* a comment, CDATA section, PI: as it is */
      put(&o, s + i, skip - i, i);
      i = skip;
    } else if (s[i] == '<' && opens_markup(s, end, i)) {
      size_t gt = agent_xml_tag_end(s, end, i);
      size_t stop = gt < end ? gt + 1 : end;
      for (; i < stop; i++) put(&o, s + i, 1, i);
    } else if (s[i] == '<') {
      put(&o, "&lt;", 4, i); /* text: "cpu < 80%" */
      i++;
    } else if (s[i] == '&') {
      i += ampersand(&o, s, end, i);
    } else {
      put(&o, s + i, 1, i);
      i++;
    }
  }
  for (size_t i = end; i < n; i++) put(&o, s[i] == '\n' ? "\n" : " ", 1, i);
  if (o.oom) {
    agent_xml_repaired_free(out);
    return -1;
  }
  return 0;
}

void agent_xml_repaired_free(xml_repaired *r) {
  free(r->text);
  free(r->from);
  memset(r, 0, sizeof *r);
}

void agent_xml_line_col(const char *s, size_t n, size_t off, int *line,
                        int *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < off && i < n; i++) {
    if (s[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}
