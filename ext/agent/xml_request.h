/*
** xml_request.h -- the model's XML response contract (DESIGN.md §7):
**
**   <response><displayName/><instructions/><triggerType/><intervalMs/>
**     <scheduledAtIso/><cronExpression/><timezone/><wakeMode/><when/>
**   </response>
**
** parsed safely with libxml2 into plain strings. The only file that sees
** libxml2. Safety, in order: input over 64 KiB, an embedded NUL or bytes
** that are not UTF-8 (utf8.h) are refused before parsing; any "<!" that
** is not a comment or CDATA (so every DOCTYPE, ENTITY or other DTD
** declaration) is refused before parsing, reading the document
** structurally (text inside a comment, CDATA section or processing
** instruction is not markup); libxml2 then runs with network access off, no
** DTD loading, no entity substitution, its default depth limit, and the
** document is checked once more for a DTD. Elements: the root must be
** <response>; a known element must hold text only (no child elements),
** appear at most once, and is trimmed; an empty one means "not given";
** unknown elements are ignored. <intervalMs> must be a whole number of
** ms that fits in 53 bits (JSON-safe).
*/
#ifndef TRIGGERS_XML_REQUEST_H
#define TRIGGERS_XML_REQUEST_H

#include <stddef.h>

#define XML_REQUEST_MAX_BYTES 65536

enum {
  XF_DISPLAY_NAME,
  XF_INSTRUCTIONS,
  XF_TRIGGER_TYPE,
  XF_INTERVAL_MS,
  XF_SCHEDULED_AT,
  XF_CRON_EXPRESSION,
  XF_TIMEZONE,
  XF_WAKE_MODE,
  XF_WHEN,
  XF_COUNT
};

typedef struct xml_field {
  const char *element; /* XML element name */
  const char *column;  /* request key (a triggers column, or "when") */
  int is_number;       /* the value is a JSON number */
} xml_field;
extern const xml_field xml_fields[XF_COUNT];

typedef struct xml_request {
  char *value[XF_COUNT]; /* malloc'd, NULL = not given */
} xml_request;

/* Error classes, as DESIGN.md §7 codes. */
#define XML_INVALID_REQUEST "INVALID_REQUEST"
#define XML_INVALID_SCHEDULE "INVALID_SCHEDULE"

/*
** Parse. Returns 0 and fills *out (free with xml_request_free), or -1
** with *code set to one of the codes above and a message in err.
*/
int xml_request_parse(const char *xml, size_t len, xml_request *out,
                      const char **code, char *err, size_t errlen);
void xml_request_free(xml_request *r);

#endif
