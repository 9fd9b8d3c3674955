/*
** fuzz_xml.c -- libFuzzer target for the XML request parser
** (xml_request.c): any bytes must parse or be refused cleanly, never
** crash, leak or read out of bounds; a success yields text-only fields.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/xml_request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  xml_request r;
  const char *code = NULL;
  char err[300];
  if (agent_xml_request_parse((const char *)data, size, &r, &code, err,
                              sizeof err) == 0) {
    for (int i = 0; i < r.n; i++) {
      if (!r.item[i].key[0]) abort();
      if (r.item[i].value && !r.item[i].value[0])
        abort(); /* empty: not given */
    }
    agent_xml_request_free(&r);
  } else if (!code || !err[0]) {
    abort(); /* every refusal has a code and a reason */
  }
  return 0;
}
