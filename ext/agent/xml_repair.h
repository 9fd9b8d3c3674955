/*
** xml_repair.h -- a model's reply read as a person reads it
** (docs/create-action.md#untidy-replies-normalization-and-ignored): the
** markup a reply may hold that XML does not allow in text, made XML
** before libxml2 parses it. Inside the <response> element (xml_request.h
** chooses it): a raw '&' that begins no reference is "&amp;" ("Tom &
** Jerry"); a '<' that cannot begin markup (not followed by a letter, '_',
** ':', '/', '!' or '?': "cpu < 80%", "a <= b") is "&lt;"; an HTML entity
** (&nbsp; &mdash; &rsquo; &eacute; ...) is its character (&nbsp; a
** space), and a named entity that is neither XML's nor HTML's is text
** ("&foo;"). Comments, CDATA sections, processing instructions and tags
** are copied as they are (markup_skip reads them). Outside the element
** every byte is a blank but line breaks, so the parser's line numbers
** count in the whole reply. A map gives each byte of the result the
** offset it came from, so an error names its place in the reply.
*/
#ifndef TRIGGERS_XML_REPAIR_H
#define TRIGGERS_XML_REPAIR_H

#include <stddef.h>

/* The end of the comment (<!-- to -->), CDATA section (<![CDATA[ to ]]>)
** or processing instruction (<? to ?>) that opens at s[lt], which is '<':
** the offset after it, n when it is not closed, or 0 when none opens
** there. Inside one, "<!DOCTYPE" or "</response>" is text. */
size_t agent_xml_markup_skip(const char *s, size_t n, size_t lt);

/* The offset of the '>' that ends the tag opening at lt (quoted attribute
** values skipped), or n. */
size_t agent_xml_tag_end(const char *s, size_t n, size_t lt);

typedef struct xml_repaired {
  char *text; /* malloc'd, len bytes (no NUL) */
  size_t len;
  size_t *from; /* malloc'd: from[i] is the reply's offset of text[i] */
} xml_repaired;

/* s[0..n) with [start, end) repaired and the rest blanked. 0, or -1 out
** of memory. */
int agent_xml_repair(const char *s, size_t n, size_t start, size_t end,
                     xml_repaired *out);
void agent_xml_repaired_free(xml_repaired *r);

/* Line and column (1-based, in bytes) of offset off in s[0..n). */
void agent_xml_line_col(const char *s, size_t n, size_t off, int *line,
                        int *col);

#endif
