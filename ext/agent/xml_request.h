/*
** xml_request.h -- the model's XML response contract
** (docs/create-action.md#the-xml-contract):
**
**   <response><displayName/><instructions/><triggerType/><intervalMs/>
**     <scheduledAtIso/><cronExpression/><timezone/><wakeMode/><when/>
**     <whenText/><sourceText/><startAt/><endAt/><maxRuns/><misfirePolicy/>
**     <overlapPolicy/><maxAttempts/><backoffMs/><jitterMs/><windowMs/>
**     <pauseAfterFailures/><enabled/><metadata/><triggerId/><scope/>
**   </response>
**
** one element per field of a JSON request (fn_create.c), in camelCase;
** xml_request.c's table maps each to its request key. It is parsed
** safely with libxml2 into plain strings. The only file that sees
** libxml2. Safety, in order: input over 64 KiB, an embedded NUL or bytes
** that are not UTF-8 (utf8.h) are refused before parsing; any "<!" that
** is not a comment or CDATA (so every DOCTYPE, ENTITY or other DTD
** declaration) is refused before parsing, anywhere in the input, reading
** it structurally (text inside a comment, CDATA section or processing
** instruction is not markup); libxml2 then runs with network access off,
** no DTD loading, no entity substitution, its default depth limit, and the
** document is checked once more for a DTD.
**
** A model's reply is untidy
** (docs/create-action.md#untidy-replies-normalization-and-ignored): what is
** parsed is the first <response> element of the input, from its start tag
** to the end tag that closes it (read structurally, so a "</response>" in
** a comment or CDATA does not end it), leaving out the prose or code fence
** around it; without one the whole input is parsed. Element names, the
** root's included, are matched in any spelling (spelling.h: <Response>,
** <MaxRuns>, <max_runs>, <max-runs>). Elements: a field's element must
** hold text only (no child elements), appear at most once, and is
** trimmed; an empty element means "not given"; an element that is no
** field is passed on under its own name (the create action lists what it
** does not know as "ignored"). <intervalMs> must be a whole number of ms
** that fits in 53 bits (JSON-safe); <enabled> takes true/false/yes/no as
** 1/0. Attributes are not read.
*/
#ifndef TRIGGERS_XML_REQUEST_H
#define TRIGGERS_XML_REQUEST_H

#include <stddef.h>

#define XML_REQUEST_MAX_BYTES 65536

/* One element of <response>, in document order. */
typedef struct xml_item {
  char *key;     /* the field's request key, or the element's own name */
  char *value;   /* trimmed text (never empty); NULL: an element that is
                 ** no field and holds elements */
  int is_number; /* value is a JSON number (<intervalMs>) */
} xml_item;

typedef struct xml_request {
  xml_item *item; /* malloc'd, with every key and value */
  int n;
} xml_request;

/* Error classes: docs/create-action.md#error-codes. */
#define XML_INVALID_REQUEST "INVALID_REQUEST"
#define XML_INVALID_SCHEDULE "INVALID_SCHEDULE"

/*
** Parse. Returns 0 and fills *out (free with agent_xml_request_free), or -1
** with *code set to one of the codes above and a message in err, or -2
** when libxml2 cannot be loaded (xml_lib.h: why in err, *code NULL).
*/
int agent_xml_request_parse(const char *xml, size_t len, xml_request *out,
                            const char **code, char *err, size_t errlen);
void agent_xml_request_free(xml_request *r);

#endif
