/*
** fn_summary.c -- bounded autonomous-state context for an agent's next
** autonomous turn (docs/summary.md).
**
**   SELECT trigger_state_summary('agent-1');
**   SELECT trigger_state_summary('agent-1', '2026-03-08T09:00:00Z',
**            '{"admin":[{"ts":"2026-03-08T08:55:00Z",
**                        "text":"deploy: hold until QA signs off",
**                        "resolved":false}],
**              "stale_ms":86400000, "max_total":1000}');
**   SELECT trigger_state_payload('agent-1', 1772960400000, '{}');
**
** The text has up to five segments, in this order, separated by blank
** lines:
**   Hints    "Hints: continue, resume, pause, await_admin_confirmation":
**            the execution hints the state calls for, in that fixed
**            order, or no line when there are none (see below).
**   Admin    options.admin items ({ts, text, resolved}): items older than
**            now - stale_ms dropped; open items before resolved ones, each
**            group newest first; conflicting directives collapsed.
**   Loop     from trigger_runs: the latest failure (its cooldown, streak
**            and error) and the latest SUM_SUCCESSES successes (objective
**            = display name, and the note the host passed to
**            trigger_run_finish, the run's `result`, if any).
**   Pending  up to SUM_PENDING scheduled triggers of the agent, by
**            next_due_at.
**   Footer   freshness: now, newest admin item, newest finished run.
** trigger_state_payload returns {"mode":"autonomous", "adminSummary",
** "loopSummary", "pendingItems":[{triggerId, displayName, nextDueAt,
** nextDueIso}], "hints":[..], "confidence"} with exactly the segments,
** items and hints the text shows.
**
** Hints, derived from the state: continue -- a run of the agent is
** running; resume -- a trigger of the agent is paused or a run of it is
** deferred; pause -- the latest failure's trigger has failed more than
** once in a row and is still scheduled; await_admin_confirmation -- a
** current open admin item is a question (its text ends in '?'), or a
** create of the agent was refused CONFIRMATION_REQUIRED within stale_ms
** (the event log) and not yet made or found with the confirmation.
**
** Caps (bytes of UTF-8): max_total 1500, max_admin 900, max_loop 400,
** max_footer 200. Options may lower them; larger values are clamped (the
** defaults are the hard limits). Budget order: the Hints line first, from
** max_total (hints dropped from the end of their order when it does not
** fit), then the loop segment (its latest failure is always kept, cut if it
** must be), then admin, then the footer, and pending items get what is left
** of max_total (6 bytes are reserved for the separators). Within a segment
** items are taken in priority order and the first one that does not fit
** ends the segment, so the oldest are dropped first; an admin item longer
** than SUM_ITEM_MAX is cut to it and later items are still shown while they
** fit; only the first admin item is cut to fit rather than dropped. A note
** "(+N more admin items omitted)" tells the agent what was left out.
**
** Conflicts: an admin item whose text starts with "topic: " (a letter,
** then up to 31 letters, digits, spaces or _ . / -, then ':' and a space
** or the end) is a directive on that topic (case-insensitive). Among
** current items with one topic the newest (by ts, then position in the
** array) wins -- last write wins; older ones are dropped, and when their
** text differs the winner carries " [conflict: overrides N earlier]".
**
** Confidence: "low" when the fallback was returned, a conflict was
** resolved, or every admin item given was stale; "medium" when anything
** was cut or left out (an item, a line, a footer clause) or some admin
** items were stale; "high" otherwise.
**
** Every text taken from the database or the options is redacted
** (redact.h) before it is cut or shown. Nothing here raises an error
** except SQLite's own argument-count check: on any failure (bad agent_id,
** now or options, a missing install, out of memory) the summary is
** SUM_FALLBACK and the payload is SUM_FALLBACK_PAYLOAD (confidence "low").
**
** Cost: four indexed queries with LIMIT, prepared once per connection
** (the connection's kept statements, store/kept.h) (triggers_rundata_outcome twice,
** triggers_state_agent once, plus id and trigger_id probes; the hints'
** probes of triggers_rundata_lease, triggers_rundata_retry and
** triggers_data_status, and of the rejected events within stale_ms),
** whatever the number of finished runs; the admin
** array is the caller's own input and is parsed once. Call it inside a
** transaction to read all three from one snapshot.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/clean_text.h"
#include "agent/summary.h"
#include "base/args.h"
#include "base/json_out.h"
#include "base/register.h"
#include "store/agent.h"
#include "store/schema.h"
#include "text/utf8.h"
#include "time/civil.h"

SQLITE_EXTENSION_INIT3

/* Execution hints: a fixed vocabulary, shown in this order. */
static const char *const hint_names[] = {"continue", "resume", "pause",
                                         "await_admin_confirmation"};

static void summary_free(summary *s) {
  store_call_end(&s->call);
  for (int i = 0; i < s->nitems; i++) sqlite3_free(s->items[i].text);
  sqlite3_free(s->items);
  sqlite3_free(s->order);
  sqlite3_free(s->fail_line);
  sqlite3_free(s->budget_line);
  for (int i = 0; i < s->nok; i++) sqlite3_free(s->ok_lines[i]);
  for (int i = 0; i < s->npend; i++) {
    sqlite3_free(s->pend_lines[i]);
    sqlite3_free(s->pend_json[i]);
  }
  for (int i = 0; i < SEG_COUNT; i++)
    sqlite3_free(sqlite3_str_finish(s->seg[i]));
  memset(s, 0, sizeof *s);
}

/* ---- text helpers ----------------------------------------------------- */

/* Largest k <= n that does not split a UTF-8 sequence of z. */
static int utf8_floor(const char *z, int n) {
  while (n > 0 && ((unsigned char)z[n] & 0xC0) == 0x80) n--;
  return n;
}

static const char *iso(i64 ms, char buf[CIVIL_ISO_MAX]) {
  civil_format_iso(ms, 0, 1, buf);
  return buf;
}

/* Append z when the segment stays within cap: 1 appended, 0 not. */
static int fit(sqlite3_str *s, int cap, const char *z) {
  int n = (int)strlen(z);
  if (sqlite3_str_length(s) + n > cap) return 0;
  sqlite3_str_append(s, z, n);
  return 1;
}

/* Append as much of z as fits, cut at a UTF-8 boundary with "...". */
static void fit_cut(sqlite3_str *s, int cap, const char *z) {
  int room = cap - sqlite3_str_length(s);
  int n = (int)strlen(z);
  if (n <= room) {
    sqlite3_str_append(s, z, n);
  } else if (room > 3) {
    sqlite3_str_append(s, z, utf8_floor(z, room - 3));
    sqlite3_str_append(s, "...", 3);
  }
}

/* ---- loop and pending rows --------------------------------------------- */

/* "<name> (<id>)", or "<id> (deleted trigger)" when the trigger is gone
** (!have); the name is the display name, or the instructions when that is
** NULL or empty. */
static char *objective_of(const char *cid, int have, const char *cname) {
  return !have ? sqlite3_mprintf("%s (deleted trigger)", cid)
               : sqlite3_mprintf("%s (%s)", cname ? cname : cid, cid);
}

/* The name objective() shows: the display name, else the instructions. */
static const char *name_of(const char *display_name, const char *instructions) {
  return display_name && *display_name ? display_name : instructions;
}

static char *objective(const text_cleaner *rx, const char *id, int have,
                       const char *display_name, const char *instructions,
                       int *cut) {
  const char *name = name_of(display_name, instructions);
  char *cid = clean_text(rx, id ? id : "", SUM_ID_MAX, cut);
  char *cname = name ? clean_text(rx, name, SUM_NAME_MAX, cut) : NULL;
  char *out = NULL;
  if (cid && (cname || !name)) out = objective_of(cid, have, cname);
  sqlite3_free(cid);
  sqlite3_free(cname);
  return out;
}

static void note_run(summary *s, i64 finished) {
  if (!s->has_run || finished > s->newest_run) s->newest_run = finished;
  s->has_run = 1;
}

/* The cooldown of the latest failure. */
static char *cooldown(summary *s, const store_agent_run *r) {
  char buf[CIVIL_ISO_MAX];
  if (r->has_retry) {
    return r->retry_at > s->now
               ? sqlite3_mprintf("retry at %s", iso(r->retry_at, buf))
               : sqlite3_mprintf("retry due now");
  }
  if (!r->has_trigger) return sqlite3_mprintf("none");
  if (r->status && strcmp(r->status, "paused") == 0)
    return sqlite3_mprintf("trigger paused");
  if (r->has_next)
    return sqlite3_mprintf("next run %s", iso(r->next_due_at, buf));
  return sqlite3_mprintf("no further runs (%s)", r->status ? r->status : "?");
}

static int read_failure(summary *s) {
  store_cursor c;
  store_agent_run r;
  int rc = store_agent_failure(s->st, s->agent, s->now, &c);
  int step = rc == SQLITE_OK ? store_agent_run_next(&c, &r) : SQLITE_DONE;
  if (step == SQLITE_ROW) {
    char buf[CIVIL_ISO_MAX];
    char *obj = objective(&s->rx, r.trigger_id, r.has_trigger, r.display_name,
                          r.instructions, &s->truncated);
    char *cd = cooldown(s, &r);
    char *err = clean_text(&s->rx, r.detail ? r.detail : "failed",
                           SUM_ERROR_MAX, &s->truncated);
    char *streak_txt = r.fail_streak > 1
                           ? sqlite3_mprintf("; %lld consecutive failures",
                                             (long long)r.fail_streak)
                           : sqlite3_mprintf("%s", "");
    /* repeated failures of a trigger that still runs: pause it */
    if (r.fail_streak > 1 && r.status && strcmp(r.status, "scheduled") == 0)
      s->hints |= H_PAUSE;
    if (obj && cd && err && streak_txt) {
      s->fail_line =
          sqlite3_mprintf("\n- last failure %s %s; cooldown: %s%s; error: %s",
                          iso(r.finished_at, buf), obj, cd, streak_txt, err);
    }
    if (!s->fail_line) rc = SQLITE_NOMEM;
    note_run(s, r.finished_at);
    sqlite3_free(obj);
    sqlite3_free(cd);
    sqlite3_free(err);
    sqlite3_free(streak_txt);
  } else if (step != SQLITE_DONE) {
    rc = step;
  }
  store_cursor_close(&c);
  return rc;
}

static int read_successes(summary *s) {
  store_cursor c;
  store_agent_run r;
  int rc = store_agent_successes(s->st, s->agent, s->now, SUM_SUCCESSES, &c);
  int step = SQLITE_DONE;
  while (rc == SQLITE_OK && s->nok < SUM_SUCCESSES &&
         (step = store_agent_run_next(&c, &r)) == SQLITE_ROW) {
    char buf[CIVIL_ISO_MAX];
    const char *note = r.detail;
    char *obj = objective(&s->rx, r.trigger_id, r.has_trigger, r.display_name,
                          r.instructions, &s->truncated);
    char *cnote =
        note ? clean_text(&s->rx, note, SUM_ERROR_MAX, &s->truncated) : NULL;
    char *line = NULL;
    if (obj && (cnote || !note)) {
      line = sqlite3_mprintf("\n- ok %s %s%s%s", iso(r.finished_at, buf), obj,
                             cnote && *cnote ? ": " : "", cnote ? cnote : "");
    }
    sqlite3_free(obj);
    sqlite3_free(cnote);
    if (!line) rc = SQLITE_NOMEM;
    else s->ok_lines[s->nok++] = line;
    note_run(s, r.finished_at);
  }
  if (rc == SQLITE_OK && s->nok < SUM_SUCCESSES && step != SQLITE_DONE)
    rc = step;
  store_cursor_close(&c);
  return rc;
}

/* continue (a run in progress), resume (a paused trigger or a deferred
** run), await_admin_confirmation (a create refused CONFIRMATION_REQUIRED
** within stale_ms, not yet repeated with the confirmation). pause and the
** other source of await_admin_confirmation come from the latest failure
** and the admin items. */
static int read_hints(summary *s) {
  int running = 0, deferred = 0, paused = 0, awaiting = 0;
  int rc = store_agent_hints(s->st, s->agent, &running, &deferred, &paused);
  if (rc == SQLITE_OK)
    rc = store_agent_awaiting(s->st, s->agent,
                              s->has_stale ? s->now - s->stale_ms : INT64_MIN,
                              s->now, &awaiting);
  if (running) s->hints |= H_CONTINUE;
  if (deferred || paused) s->hints |= H_RESUME;
  if (awaiting) s->hints |= H_AWAIT;
  return rc;
}

static int read_pending(summary *s) {
  store_cursor c;
  store_agent_pending p;
  int rc = store_agent_pending_open(s->st, s->agent, SUM_PENDING, &c);
  int step = SQLITE_DONE;
  while (rc == SQLITE_OK && s->npend < SUM_PENDING &&
         (step = store_agent_pending_next(&c, &p)) == SQLITE_ROW) {
    char buf[CIVIL_ISO_MAX];
    i64 due = p.next_due_at;
    iso(due, buf);
    /* id and name redacted once, for the line and for the JSON item */
    const char *name = name_of(p.display_name, p.instructions);
    char *cid = clean_text(&s->rx, p.trigger_id ? p.trigger_id : "", SUM_ID_MAX,
                           &s->truncated);
    char *cname =
        clean_text(&s->rx, name ? name : "", SUM_NAME_MAX, &s->truncated);
    char *obj = cid && cname ? objective_of(cid, 1, name ? cname : NULL) : NULL;
    sqlite3_str *js = sqlite3_str_new(s->db);
    sqlite3_str_appendall(js, "{\"triggerId\":");
    json_str(js, cid);
    sqlite3_str_appendall(js, ",\"displayName\":");
    json_str(js, cname);
    sqlite3_str_appendf(js, ",\"nextDueAt\":%lld,\"nextDueIso\":\"%s\"}",
                        (long long)due, buf);
    int jerr = sqlite3_str_errcode(js);
    char *json = sqlite3_str_finish(js);
    if (jerr != SQLITE_OK) {
      sqlite3_free(json);
      json = NULL;
    }
    char *line = obj ? sqlite3_mprintf("\n- %s %s%s", buf, obj,
                                       due <= s->now ? " (overdue)" : "")
                     : NULL;
    if (line && json && cid && cname) {
      s->pend_lines[s->npend] = line;
      s->pend_json[s->npend++] = json;
    } else {
      sqlite3_free(line);
      sqlite3_free(json);
      rc = SQLITE_NOMEM;
    }
    sqlite3_free(obj);
    sqlite3_free(cid);
    sqlite3_free(cname);
  }
  if (rc == SQLITE_OK && s->npend < SUM_PENDING && step != SQLITE_DONE)
    rc = step;
  store_cursor_close(&c);
  return rc;
}

/* ---- segments ---------------------------------------------------------- */

/* Room left for the omission note: "\n(+N more admin items omitted)". */
#define NOTE_RESERVE 40

static char *admin_line(const text_cleaner *rx, const adm_item *it,
                        int text_max, int *cut) {
  char buf[CIVIL_ISO_MAX];
  char *text = clean_text(rx, it->text, text_max, cut);
  char *marker =
      it->overrides
          ? sqlite3_mprintf(" [conflict: overrides %d earlier]", it->overrides)
          : sqlite3_mprintf("%s", "");
  char *line = NULL;
  if (text && marker) {
    /* an item of only blanks has no text: no space after its bracket */
    line =
        sqlite3_mprintf("\n- [%s %s]%s%s%s", it->resolved ? "resolved" : "open",
                        iso(it->ts, buf), *text ? " " : "", text, marker);
  }
  sqlite3_free(text);
  sqlite3_free(marker);
  return line;
}

static int seg_admin(summary *s, sqlite3_str *out, int cap) {
  if (s->norder == 0) {
    if (!fit(out, cap, "Admin: no current directives."))
      s->truncated |= s->nitems > 0;
    return SQLITE_OK;
  }
  if (!fit(out, cap, "Admin:")) {
    s->truncated = 1;
    return SQLITE_OK;
  }
  int shown = 0;
  for (int i = 0; i < s->norder; i++) {
    int reserve = i + 1 < s->norder ? NOTE_RESERVE : 0;
    int cut = 0;
    char *line = admin_line(&s->rx, s->order[i], SUM_ITEM_MAX, &cut);
    if (!line) return SQLITE_NOMEM;
    int room = cap - reserve - sqlite3_str_length(out);
    int ok = (int)strlen(line) <= room;
    if (!ok && shown == 0) {
      /* the most important item is cut to fit rather than dropped */
      int ignored = 0;
      char *bare = admin_line(&s->rx, s->order[i], 0, &ignored);
      /* its line without text, and the space before the text */
      int fixed = bare ? (int)strlen(bare) + 1 : 0;
      sqlite3_free(bare);
      sqlite3_free(line);
      line = NULL;
      if (!bare) return SQLITE_NOMEM;
      if (room - fixed >= 16) {
        line = admin_line(&s->rx, s->order[i], room - fixed, &cut);
        if (!line) return SQLITE_NOMEM;
        ok = (int)strlen(line) <= room;
        cut = 1;
      }
    }
    if (ok) {
      sqlite3_str_appendall(out, line);
      shown++;
      s->truncated |= cut;
    }
    sqlite3_free(line);
    /* The first item that does not fit ends the segment (the dropped ones
    ** are the tail of the order); one cut to SUM_ITEM_MAX does not. */
    if (!ok) break;
  }
  if (shown < s->norder) {
    char note[NOTE_RESERVE + 8];
    int more = s->norder - shown;
    snprintf(note, sizeof note, "\n(+%d more admin item%s omitted)", more,
             more == 1 ? "" : "s");
    fit(out, cap, note);
    s->truncated = 1;
  }
  return SQLITE_OK;
}

static int seg_loop(summary *s, sqlite3_str *out, int cap) {
  if (!s->fail_line && s->nok == 0) {
    fit(out, cap, "Loop: no finished runs yet.");
    return SQLITE_OK;
  }
  if (!fit(out, cap, "Loop:")) {
    s->truncated = 1;
    return SQLITE_OK;
  }
  if (s->fail_line && !fit(out, cap, s->fail_line)) {
    fit_cut(out, cap, s->fail_line); /* the latest failure is always kept */
    s->truncated = 1;
  }
  if (s->budget_line && !fit(out, cap, s->budget_line)) s->truncated = 1;
  for (int i = 0; i < s->nok; i++) {
    if (!fit(out, cap, s->ok_lines[i])) {
      s->truncated = 1;
      break;
    }
  }
  return SQLITE_OK;
}

static int seg_pending(summary *s, sqlite3_str *out, int cap) {
  if (s->npend == 0) {
    fit(out, cap, "Pending: nothing scheduled.");
    return SQLITE_OK;
  }
  if (!fit(out, cap, "Pending:")) {
    s->truncated = 1;
    return SQLITE_OK;
  }
  for (int i = 0; i < s->npend; i++) {
    if (!fit(out, cap, s->pend_lines[i])) {
      s->truncated = 1;
      break;
    }
    s->pend_shown++;
  }
  return SQLITE_OK;
}

static int seg_footer(summary *s, sqlite3_str *out, int cap) {
  char a[CIVIL_ISO_MAX];
  char clause[4][96];
  int n = 0;
  snprintf(clause[n++], sizeof clause[0], "As of %s", iso(s->now, a));
  if (s->nitems > 0) {
    i64 newest = s->items[0].ts;
    for (int i = 1; i < s->nitems; i++) {
      if (s->items[i].ts > newest) newest = s->items[i].ts;
    }
    snprintf(clause[n++], sizeof clause[0], "; newest admin item %s",
             iso(newest, a));
  }
  if (s->has_run) {
    snprintf(clause[n++], sizeof clause[0], "; newest run %s",
             iso(s->newest_run, a));
  } else {
    snprintf(clause[n++], sizeof clause[0], "; no finished runs");
  }
  if (s->nstale > 0) {
    snprintf(clause[n++], sizeof clause[0], "; %d stale admin item%s ignored",
             s->nstale, s->nstale == 1 ? "" : "s");
  }
  if (cap < 1) {
    s->truncated = 1;
    return SQLITE_OK;
  }
  fit_cut(out, cap - 1, clause[0]);
  for (int i = 1; i < n; i++) {
    if (!fit(out, cap - 1, clause[i])) {
      s->truncated = 1;
      break;
    }
  }
  if (sqlite3_str_length(out) > 0) sqlite3_str_appendchar(out, 1, '.');
  return SQLITE_OK;
}

/*
** "Hints: continue, pause": the derived hints in vocabulary order. It is
** built first, from max_total (it is at most 56 bytes plus its separator);
** when even that does not fit, hints are dropped from the end of the
** vocabulary order until it does (none shown: no line).
*/
static void seg_hints(summary *s, sqlite3_str *out, int room) {
  unsigned shown = s->hints;
  for (;;) {
    int len = 0;
    for (int i = 0; i < 4; i++) {
      if (shown & (1u << i))
        len += (int)strlen(hint_names[i]) + (len ? 2 : (int)strlen("Hints: "));
    }
    if (shown == 0 || len + 2 <= room) break;
    unsigned top = H_AWAIT;
    while (!(shown & top)) top >>= 1;
    shown &= ~top; /* the last in vocabulary order goes first */
  }
  if (shown != s->hints) s->truncated = 1;
  s->hints_shown = shown;
  const char *sep = "Hints: ";
  for (int i = 0; i < 4; i++) {
    if (!(shown & (1u << i))) continue;
    sqlite3_str_appendall(out, sep);
    sqlite3_str_appendall(out, hint_names[i]);
    sep = ", ";
  }
}

/* Build the segments within the caps (see the header comment). */
static int build_segments(summary *s) {
  for (int i = 0; i < SEG_COUNT; i++) {
    s->seg[i] = sqlite3_str_new(s->db);
  }
  int rest = s->cap_total - 6;
  if (rest < 0) rest = 0;
  seg_hints(s, s->seg[SEG_HINTS], rest);
  if (sqlite3_str_length(s->seg[SEG_HINTS]) > 0)
    rest -= sqlite3_str_length(s->seg[SEG_HINTS]) + 2; /* its separator */
  int rc =
      seg_loop(s, s->seg[SEG_LOOP], s->cap_loop < rest ? s->cap_loop : rest);
  rest -= sqlite3_str_length(s->seg[SEG_LOOP]);
  if (rc == SQLITE_OK) {
    rc = seg_admin(s, s->seg[SEG_ADMIN],
                   s->cap_admin < rest ? s->cap_admin : rest);
  }
  rest -= sqlite3_str_length(s->seg[SEG_ADMIN]);
  if (rc == SQLITE_OK) {
    rc = seg_footer(s, s->seg[SEG_FOOTER],
                    s->cap_footer < rest ? s->cap_footer : rest);
  }
  rest -= sqlite3_str_length(s->seg[SEG_FOOTER]);
  if (rc == SQLITE_OK) rc = seg_pending(s, s->seg[SEG_PENDING], rest);
  for (int i = 0; i < SEG_COUNT && rc == SQLITE_OK; i++)
    rc = sqlite3_str_errcode(s->seg[i]);
  return rc;
}

static const char *confidence(const summary *s) {
  if (s->nconflicts > 0 || (s->nitems > 0 && s->nstale == s->nitems))
    return "low";
  if (s->truncated || s->nstale > 0) return "medium";
  return "high";
}

/* ---- the functions ----------------------------------------------------- */

/*
** No transaction of its own: a SAVEPOINT here could not be released while
** a calling INSERT .. SELECT runs. Inside the caller's transaction the
** three reads share its snapshot.
*/
static int read_all(summary *s) {
  int rc = agent_summary_admin_resolve(s);
  if (rc == SQLITE_OK) rc = read_failure(s);
  if (rc == SQLITE_OK) rc = read_successes(s);
  if (rc == SQLITE_OK) rc = read_pending(s);
  if (rc == SQLITE_OK) rc = read_hints(s);
  if (rc == SQLITE_OK) rc = agent_summary_budget_read(s);
  return rc;
}

/* Everything but the output; any failure means the fallback. */
static int summary_build(summary *s, sqlite3_context *ctx, int argc,
                         sqlite3_value **argv) {
  memset(s, 0, sizeof *s);
  s->db = sqlite3_context_db_handle(ctx);
  trg_ctx *c = sqlite3_user_data(ctx);
  store_call_init(&s->call, s->db, c);
  s->st = s->call.st;
  text_cleaner_init(&s->rx, c); /* once for every text of the call */
  /* Not from a preload (it may call no function with side effects), nor
  ** on a schema of another version: the fallback, never a misread. */
  if (c->in_preload) return SQLITE_ERROR;
  char *why = NULL;
  int ready; /* not installed: the statements fail (the fallback) */
  int rc = store_ready(c, s->db, &ready, &why);
  sqlite3_free(why);
  if (rc != SQLITE_OK) return rc;
  if (ready) {
    store_call_take(&s->call); /* prepared once per connection */
    s->st = s->call.st;
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_ERROR;
  s->agent = (const char *)sqlite3_value_text(argv[0]);
  if (!s->agent) return SQLITE_NOMEM;
  if (!utf8_check(s->agent, (size_t)sqlite3_value_bytes(argv[0]), NULL))
    return SQLITE_ERROR; /* no stored agent id is like it */
  if (argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    char *err;
    rc = trg_instant_of(argv[1], 1, "now", &s->now, &err);
    sqlite3_free(err);
    if (rc != SQLITE_OK) return rc;
  } else {
    s->now = trg_wall_clock_ms();
  }
  const char *json = NULL;
  char *repaired = NULL;
  if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL) {
    if (sqlite3_value_type(argv[2]) != SQLITE_TEXT) return SQLITE_ERROR;
    json = (const char *)sqlite3_value_text(argv[2]);
    if (!json) return SQLITE_NOMEM;
    /* The admin items come from a chat: bad bytes and escapes (\u0000, a
    ** lone surrogate) become U+FFFD rather than losing the summary. */
    size_t n = (size_t)sqlite3_value_bytes(argv[2]);
    if (!utf8_json_check(json, n, NULL)) {
      if (!(json = repaired = trg_text_repair(json, n, 1))) return SQLITE_NOMEM;
    }
  }
  rc = agent_summary_opts_read(s, json);
  sqlite3_free(repaired);
  if (rc == SQLITE_OK) rc = read_all(s);
  if (rc == SQLITE_OK) rc = build_segments(s);
  return rc;
}

static void fn_summary(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  summary s;
  int rc = summary_build(&s, ctx, argc, argv);
  sqlite3_str *out = sqlite3_str_new(s.db);
  int first = 1;
  for (int i = 0; i < SEG_COUNT && rc == SQLITE_OK; i++) {
    if (sqlite3_str_length(s.seg[i]) == 0) continue;
    if (!first) sqlite3_str_appendall(out, "\n\n");
    sqlite3_str_append(out, sqlite3_str_value(s.seg[i]),
                       sqlite3_str_length(s.seg[i]));
    first = 0;
  }
  if (rc == SQLITE_OK) rc = sqlite3_str_errcode(out);
  char *z = sqlite3_str_finish(out);
  if (rc == SQLITE_OK && (int)strlen(z ? z : "") <= s.cap_total) {
    sqlite3_result_text(ctx, z ? z : "", -1, SQLITE_TRANSIENT);
  } else {
    sqlite3_result_text(ctx, SUM_FALLBACK, -1, SQLITE_STATIC);
  }
  sqlite3_free(z);
  summary_free(&s);
}

static void json_seg(sqlite3_str *out, sqlite3_str *seg) {
  const char *v = sqlite3_str_value(seg);
  json_str(out, v ? v : "");
}

static void fn_payload(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  summary s;
  int rc = summary_build(&s, ctx, argc, argv);
  sqlite3_str *out = sqlite3_str_new(s.db);
  if (rc == SQLITE_OK) {
    sqlite3_str_appendall(out, "{\"mode\":\"autonomous\",\"adminSummary\":");
    json_seg(out, s.seg[SEG_ADMIN]);
    sqlite3_str_appendall(out, ",\"loopSummary\":");
    json_seg(out, s.seg[SEG_LOOP]);
    sqlite3_str_appendall(out, ",\"pendingItems\":[");
    for (int i = 0; i < s.pend_shown; i++) {
      sqlite3_str_appendf(out, "%s%s", i ? "," : "", s.pend_json[i]);
    }
    sqlite3_str_appendall(out, "],\"hints\":[");
    for (int i = 0, n = 0; i < 4; i++) {
      if (s.hints_shown & (1u << i))
        sqlite3_str_appendf(out, "%s\"%s\"", n++ ? "," : "", hint_names[i]);
    }
    sqlite3_str_appendf(out, "],\"confidence\":\"%s\"}", confidence(&s));
    rc = sqlite3_str_errcode(out);
  }
  char *z = sqlite3_str_finish(out);
  if (rc == SQLITE_OK && z) {
    sqlite3_result_text(ctx, z, -1, SQLITE_TRANSIENT);
  } else {
    sqlite3_result_text(ctx, SUM_FALLBACK_PAYLOAD, -1, SQLITE_STATIC);
  }
  sqlite3_free(z);
  summary_free(&s);
}

int agent_fn_summary_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_state_summary", 1, 3, TRG_FN_SIDE, fn_summary},
      {"trigger_state_payload", 1, 3, TRG_FN_SIDE, fn_payload},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
