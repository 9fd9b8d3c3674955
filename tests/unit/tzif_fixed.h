/*
** tzif_fixed.h -- the smallest zone file the tests need, built by hand:
** TZif version 1, one time type, UTC+3 ("+03"), no transitions (54
** bytes). For tz_parse, or written to a file for tzdb.
*/
#ifndef TRIGGERS_TEST_TZIF_FIXED_H
#define TRIGGERS_TEST_TZIF_FIXED_H

/* clang-format off */
static const unsigned char tzif_plus3[] = {
    'T', 'Z', 'i', 'f', 0,                      /* magic, version 1 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* reserved */
    0, 0, 0, 0,                                  /* UT/local indicators */
    0, 0, 0, 0,                                  /* standard/wall ones */
    0, 0, 0, 0,                                  /* leap seconds */
    0, 0, 0, 0,                                  /* transitions */
    0, 0, 0, 1,                                  /* time types */
    0, 0, 0, 4,                                  /* abbreviation bytes */
    0, 0, 0x2a, 0x30, 0, 0,                      /* +10800 s, std, "+03" */
    '+', '0', '3', 0};
/* clang-format on */

#endif
