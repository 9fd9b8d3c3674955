/*
** coverage.h -- ALWAYS() and NEVER(): how a defensive check is written
** (the convention of SQLite's own sources). It lives in the lowest layer
** (text/) because every layer above, the pure modules and the host
** included, may write such a check.
**
** A check that no input, allocation failure or I/O error can reach --
** it guards an invariant the code around it already holds -- is written
** `if (NEVER(cond))` or `if (ALWAYS(cond))`. Three builds:
**   - normal builds: the condition, evaluated as written;
**   - `make test-asan` (-DTRG_DEBUG): the condition, and an assert that
**     it has the expected value, so every test run checks the claim that
**     the other side is unreachable (the fault harness included);
**   - `make coverage` (-DCOVERAGE): a constant, so the side no test can
**     reach is not counted as an untested branch.
** Every use is listed, with its reason, in docs/testing.md ("Defensive
** checks"); `make lint` checks that the list and the code agree. An
** allocation failure is never a NEVER: the fault harness reaches those.
*/
#ifndef TRG_COVERAGE_H
#define TRG_COVERAGE_H

#if defined(COVERAGE)
#define ALWAYS(X) (1)
#define NEVER(X) (0)
#elif defined(TRG_DEBUG)
#include <assert.h>
#define ALWAYS(X) ((X) ? 1 : (assert(0), 0))
#define NEVER(X) ((X) ? (assert(0), 1) : 0)
#else
#define ALWAYS(X) (X)
#define NEVER(X) (X)
#endif

#endif
