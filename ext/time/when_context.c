/*
** when_context.c -- what the words around a time phrase in a message say
** (when_msg.h; docs/when.md "Finding a phrase in a message"):
**
**   - a request: "remind me", "ping me", "can you", "don't forget", an
**     imperative at the start of the clause ("call mom at 5pm");
**   - a statement of fact about another time: the clause has its own verb
**     ("the dentist is on friday at 3pm");
**   - the past: a past-tense verb in the clause ("we met", "I called",
**     "was"), "yesterday", "ago", "last night" -- a past time is not a
**     schedule, unless the phrase itself points ahead ("tomorrow");
**   - a question that asks nothing to be done ("what's the weather
**     tomorrow?"), a sign-off ("see you tomorrow"), a day as the subject
**     ("tomorrow is another day"), a cancellation ("stop reminding me");
**   - hedges and deadlines right before the phrase ("around", "by",
**     "after the meeting"), alternatives ("at 4 or 5pm"), "ago" after it;
**   - numbers that are not times: "John 3:16", "the 2:15 train", "is 3:45
**     long", "at 7 dollars";
**   - a time-like word next to the phrase that the phrase did not read
**     ("tomorrow at 9am-ish"): the whole of what was meant is unknown;
**   - which half of the day a clock time without am/pm means: "dinner",
**     "tonight" (pm), "breakfast", "wake" (am), "meeting", "dentist"
**     (business hours).
*/
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/when_msg.h"

#define N(a) WHEN_COUNT(a)

/* ---- word lists ------------------------------------------------------------ */

static const char *const markers[] = {
    "remind",    "reminder", "remember",     "ping me",     "alert me",
    "notify me", "nudge me", "wake me",      "text me",     "message me",
    "email me",  "call me",  "tell me",      "let me know", "set a",
    "set an",    "set up",   "don't forget", "dont forget", "do not forget",
    "make sure", "can you",  "could you",    "would you",   "will you",
    "can u",     "could u",  "pls",          "please",      "plz",
    "let's",     "lets",     "let us",       "need to",     "have to",
    "got to",    "gotta",    "want to",      "i need",      "try again",
    "can we",    "could we", "shall we",     "i'd like",    "id like",
    "move my",   "move the", "reschedule",   "schedule a",  "schedule the",
    "book a",    "book the", "put it",       "add it",      "put a",
    "add a",     "rmd me",   "rmnd me",      "give me a",   "rmind me",
    "remnd me",  "remid me", "remaind me"};

/* Verbs that start an imperative clause ("call mom at 5pm"). */
static const char *const imperatives[] = {
    "call",     "ring",     "phone",    "text",     "email",    "message",
    "send",     "submit",   "file",     "pay",      "buy",      "get",
    "grab",     "pick",     "collect",  "fetch",    "bring",    "take",
    "drop",     "put",      "move",     "book",     "order",    "reserve",
    "schedule", "check",    "review",   "read",     "write",    "prepare",
    "prep",     "pack",     "clean",    "wash",     "water",    "feed",
    "walk",     "mow",      "cook",     "bake",     "start",    "restart",
    "turn",     "switch",   "open",     "close",    "lock",     "unlock",
    "leave",    "go",       "head",     "visit",    "meet",     "join",
    "attend",   "watch",    "play",     "practice", "study",    "revise",
    "finish",   "complete", "do",       "make",     "fix",      "update",
    "upgrade",  "deploy",   "release",  "ship",     "publish",  "post",
    "back",     "renew",    "return",   "remind",   "ping",     "alert",
    "notify",   "wake",     "tell",     "ask",      "follow",   "confirm",
    "print",    "charge",   "plug",     "unplug",   "set",      "change",
    "rotate",   "run",      "test",     "archive",  "sync",     "refresh",
    "poll",     "stretch",  "drink",    "eat",      "meditate", "exercise",
    "jog",      "swim",     "shower",   "light",    "iron",     "wrap",
    "plan",     "invoice",  "transfer", "sign",     "apply",    "register",
    "download", "upload",   "install",  "clear",    "empty",    "throw",
    "recycle",  "defrost",  "thaw",     "flip",     "stir",     "try",
    "contact",  "reply",    "respond",  "catch",    "board",    "celebrate",
    "invite",   "thank",    "wish",     "remember", "note",     "log",
    "record",   "backup",   "mail",     "ring",     "dial",     "calendar",
    "let",      "help",     "bring",    "sort",     "organize", "organise",
    "tidy",     "vacuum",   "hoover",   "feed",     "give",     "put",
    "hand",     "pop",      "nip",      "lay",      "spray",    "fill",
    "top",      "pump",     "inflate",  "replace",  "repair",   "service"};

/* Words that may open a clause before its verb: "ok so call mom". */
static const char *const fillers[] = {
    "ok",    "okay",   "so",   "and",     "then",     "also",
    "just",  "please", "pls",  "plz",     "hey",      "hi",
    "hello", "yo",     "heya", "oh",      "reminder", "reminders",
    "btw",   "now",    "ah",   "alright", "right",    "um",
    "uh",    "oi",     "dear", "u",       "you"};

/* A clause with one of these has a verb of its own: a statement. */
static const char *const predicates[] = {
    "is",      "are",     "was",      "were",    "am",       "be",
    "been",    "has",     "have",     "had",     "will",     "gets",
    "got",     "does",    "did",      "starts",  "leaves",   "opens",
    "closes",  "comes",   "arrives",  "departs", "begins",   "ends",
    "runs",    "lands",   "finishes", "goes",    "happens",  "moved",
    "it's",    "that's",  "he's",     "she's",   "there's",  "what's",
    "i'm",     "you're",  "we're",    "they're", "i'll",     "we'll",
    "it'll",   "i've",    "we've",    "they'll", "isn't",    "aren't",
    "wasn't",  "weren't", "shows",    "plays",   "kicks",    "airs",
    "departs", "boards",  "expires",  "closes",  "finishes", "'s"};

/* A clause led by one of these tells something: a statement. */
static const char *const subjects[] = {"i",    "we", "he",   "she",
                                       "they", "it", "there"};
/* Habits are not schedules: "I usually wake up at 7". */
static const char *const habitual[] = {
    "usually",   "normally", "always", "typically", "generally", "often",
    "sometimes", "never",    "rarely", "used to",   "every time"};

static const char *const past_words[] = {
    "was",         "were",      "wasn't",  "weren't",   "did",    "didn't",
    "had",         "hadn't",    "went",    "came",      "left",   "met",
    "ran",         "took",      "got",     "began",     "woke",   "sent",
    "spoke",       "paid",      "said",    "told",      "ate",    "drank",
    "saw",         "made",      "gave",    "found",     "bought", "brought",
    "thought",     "felt",      "kept",    "slept",     "stood",  "won",
    "lost",        "heard",     "held",    "led",       "forgot", "flew",
    "drove",       "wrote",     "broke",   "fell",      "became", "chose",
    "knew",        "grew",      "threw",   "rode",      "rose",   "sang",
    "swam",        "wore",      "tore",    "caught",    "taught", "fought",
    "sold",        "hung",      "meant",   "spent",     "built",  "struck",
    "understood",  "yesterday", "ago",     "already",   "gone",   "done",
    "been",        "seen",      "taken",   "born",      "missed", "forgotten",
    "yesterday's", "sat",       "rang",    "rung",      "sank",   "bit",
    "hid",         "slid",      "dug",     "spun",      "sprang", "shrank",
    "stole",       "froze",     "swept",   "wept",      "knelt",  "dealt",
    "lent",        "bent",      "fled",    "bled",      "laid",   "stuck",
    "swung",       "clung",     "flung",   "forgave",   "drew",   "blew",
    "shook",       "woken",     "arose",   "awoke",     "bore",   "crept",
    "leapt",       "overslept", "sped",    "strode",    "swore",  "wrung",
    "spilt",       "dove",      "spat",    "sought",    "wound",  "ground",
    "bound",       "withdrew",  "mistook", "overheard", "hadnt",  "didnt",
    "wasnt",       "werent"};

/* Words ending in -ed that are no past tense. */
static const char *const not_past_ed[] = {
    "need",    "bed",     "red",     "shed",     "speed",    "feed",
    "seed",    "weed",    "breed",   "indeed",   "hundred",  "sacred",
    "naked",   "wicked",  "embed",   "proceed",  "exceed",   "succeed",
    "wed",     "ted",     "fred",    "ned",      "led",      "fed",
    "bred",    "tired",   "excited", "bored",    "scared",   "interested",
    "married", "related", "based",   "advanced", "detailed", "limited",
    "needed"};

/* Participles that point ahead with "for"/"to": "moved to 9:45",
** "scheduled for friday". */
static const char *const ahead_ed[] = {
    "scheduled", "booked",    "planned",  "moved",   "rescheduled",
    "postponed", "confirmed", "arranged", "set",     "pushed",
    "shifted",   "changed",   "bumped",   "delayed", "slated"};

/* Before an -ed word, these make it no past tense ("is scheduled"). */
static const char *const ed_guards[] = {
    "is",   "are",   "be",    "been",   "being",   "get",   "gets", "it's",
    "am",   "i'm",   "we're", "you're", "they're", "will",  "to",   "the",
    "a",    "an",    "my",    "your",   "our",     "their", "his",  "her",
    "its",  "this",  "that",  "very",   "so",      "too",   "not",  "fully",
    "i'll", "we'll", "he's",  "she's",  "that's",  "get",   "feel", "feeling"};

static const char *const guard_vague[] = {
    "around",   "about",   "approximately", "approx",   "roughly",  "circa",
    "maybe",    "perhaps", "possibly",      "probably", "sometime", "early",
    "late",     "later",   "earliest",      "latest",   "between",  "within",
    "whenever", "ish",     "toward",        "towards",  "thing",    "midway"};
static const char *const guard_event[] = {"after", "before", "b4",    "until",
                                          "till",  "til",    "since", "once",
                                          "when",  "between"};
static const char *const guard_past[] = {"last", "past", "previous"};
static const char *const guard_other[] = {"every", "each",  "other",  "not",
                                          "times", "twice", "thrice", "its",
                                          "it's",  "per"};
static const char *const guard_after[] = {"ago",   "before", "after", "earlier",
                                          "past",  "ish",    "long",  "or",
                                          "minus", "plus"};

static const char *const determiners[] = {
    "the", "my", "your", "our",    "his",   "her",  "their",
    "a",   "an", "that", "this's", "whose", "sam's"};

static const char *const subject_verbs[] = {
    "is", "was", "will", "are",   "were",  "isn't", "wasn't",
    "'s", "has", "had",  "seems", "looks", "feels"};

static const char *const social[] = {
    "see you",    "see ya",    "talk",   "speak",       "chat",  "catch you",
    "good night", "goodnight", "have a", "have a good", "enjoy", "happy",
    "good luck",  "bye",       "later",  "cya",         "ttyl",  "until"};

static const char *const cancel_strong[] = {
    "no need",       "no more",           "anymore",        "any more",
    "can't make it", "cant make it",      "cannot make it", "won't make it",
    "wont make it",  "can't come",        "can't do",       "cant do",
    "won't be able", "not going to make", "stop reminding", "stop pinging",
    "stop alerting", "stop nudging",      "stop texting",   "stop notifying",
    "stop waking"};
static const char *const cancel_events[] = {
    "cancel", "call off", "unschedule", "cancelled", "canceled", "scrap"};
static const char *const event_objects[] = {
    "meeting", "appointment", "booking", "reservation", "call",  "event",
    "class",   "lesson",      "session", "dinner",      "lunch", "plans",
    "date",    "standup",     "sync",    "interview",   "trip",  "flight"};
static const char *const cancel_weak[] = {
    "stop", "delete", "remove", "turn off", "switch off", "disable",
    "mute", "clear",  "pause",  "skip",     "drop",       "kill"};
static const char *const reminder_objects[] = {
    "reminder",      "reminders", "alarm",  "alarms", "notification",
    "notifications", "alert",     "alerts", "timer",  "timers",
    "ping",          "pings",     "nudge",  "nudges"};
static const char *const negations[] = {"don't",      "dont", "do not", "never",
                                        "no need to", "not",  "doesn't"};
static const char *const request_verbs[] = {
    "remind", "ping",    "alert",  "notify",  "wake",    "nudge",
    "text",   "message", "bother", "call me", "email me"};

static const char *const hint_pm[] = {
    "dinner",     "supper",     "drinks",   "cocktails", "movie",
    "movies",     "film",       "cinema",   "theatre",   "theater",
    "concert",    "gig",        "party",    "bedtime",   "pub",
    "bar",        "nightcap",   "tonight",  "evening",   "night",
    "afternoon",  "bbq",        "barbecue", "dessert",   "nightly",
    "tonite",     "2nite",      "evenings", "nights",    "afternoons",
    "date night", "happy hour", "footy",    "telly",     "tv"};
static const char *const hint_am[] = {
    "breakfast", "brunch",  "wake",    "waking",  "woke",     "morning",
    "mornings",  "sunrise", "commute", "standup", "stand-up", "alarm"};
static const char *const hint_day[] = {
    "meeting",     "meetings",    "sync",       "appointment", "interview",
    "class",       "lecture",     "lesson",     "dentist",     "doctor",
    "vet",         "office",      "work",       "shift",       "plumber",
    "electrician", "delivery",    "courier",    "notary",      "bank",
    "clinic",      "hospital",    "school",     "lunch",       "review",
    "demo",        "conference",  "webinar",    "seminar",     "workshop",
    "contractor",  "mechanic",    "garage",     "kids",        "bus",
    "train",       "ferry",       "tram",       "commute",     "retro",
    "kickoff",     "1:1",         "standup",    "stand-up",    "team",
    "client",      "customer",    "accountant", "lawyer",      "embassy",
    "pharmacy",    "post office", "council"};
static const char *const timer_words[] = {"timer", "countdown", "alarm"};

/* ---- helpers ------------------------------------------------------------ */

static int has(const char *t, size_t len, size_t a, size_t b, size_t xa,
               size_t xb, const char *const *list, int n) {
  return when_find_word(t, len, a, b, xa, xb, list, n) != 0;
}

/* "have" at byte w after a subject ("I have", "we have"): a statement of
** what is planned, not a sign-off. */
static int subject_has(const char *t, size_t len, size_t w) {
  static const char *const planners[] = {"i", "we", "they"};
  size_t a, b, a2, b2;
  return when_next_word(t, len, w, &a, &b) && when_word_eq(t, a, b, "have") &&
         when_prev_word(t, len, a, &a2, &b2) &&
         when_word_in(t, a2, b2, planners, N(planners));
}

/* The first word of the clause [ca, cb) after fillers, or 0. */
static int clause_head(const char *t, size_t len, size_t ca, size_t cb,
                       size_t *a, size_t *b) {
  size_t wa, wb;
  for (size_t i = ca; when_next_word(t, len, i, &wa, &wb) && wa < cb; i = wb) {
    if (when_word_in(t, wa, wb, fillers, N(fillers))) continue;
    *a = wa, *b = wb;
    return 1;
  }
  return 0;
}

/* A request in [ca, cb): a marker, or an imperative at its head. *at gets
** the marker's start. */
static int request_in(const char *t, size_t len, size_t ca, size_t cb,
                      size_t xa, size_t xb, size_t *at) {
  size_t m = when_find_word(t, len, ca, cb, xa, xb, markers, N(markers)), a, b;
  if (m) {
    *at = m - 1;
    return 1;
  }
  if (clause_head(t, len, ca, cb, &a, &b) && !(a >= xa && a < xb) &&
      when_word_in(t, a, b, imperatives, N(imperatives))) {
    *at = a;
    return 1;
  }
  return 0;
}

/* An -ed word that reads as a past tense: not after "is", "the", "to" ...,
** and not a participle pointing ahead ("moved to", "scheduled for"). */
static int past_ed(const char *t, size_t len, size_t a, size_t b,
                   size_t clause_a) {
  size_t pa, pb, na, nb;
  if (b - a < 5 || !when_word_is(t + b - 2, 2, "ed")) return 0;
  for (size_t i = a; i < b; i++)
    if (!ascii_is_alpha(t[i])) return 0;
  if (when_word_in(t, a, b, not_past_ed, N(not_past_ed))) return 0;
  if (when_prev_word(t, len, a, &pa, &pb) && pa >= clause_a &&
      when_word_in(t, pa, pb, ed_guards, N(ed_guards)))
    return 0;
  if (when_word_in(t, a, b, ahead_ed, N(ahead_ed)) &&
      when_next_word(t, len, b, &na, &nb) &&
      (when_word_eq(t, na, nb, "for") || when_word_eq(t, na, nb, "to") ||
       when_word_eq(t, na, nb, "until") || when_word_eq(t, na, nb, "till")))
    return 0;
  return 1;
}

/* A past-tense word in [ca, cb) outside the phrase: its start + 1, or 0. */
static size_t past_in(const char *t, size_t len, size_t ca, size_t cb,
                      size_t xa, size_t xb) {
  size_t wa, wb, na, nb;
  for (size_t i = ca; when_next_word(t, len, i, &wa, &wb) && wa < cb; i = wb) {
    if (wa >= xa && wa < xb) continue;
    if (when_word_in(t, wa, wb, past_words, N(past_words))) {
      /* "got moved to wednesday": a new time, not a past one */
      if (when_next_word(t, len, wb, &na, &nb) &&
          when_word_in(t, na, nb, ahead_ed, N(ahead_ed)) &&
          !past_ed(t, len, na, nb, ca))
        continue;
      return wa + 1;
    }
    if (past_ed(t, len, wa, wb, ca)) return wa + 1;
    if (when_word_eq(t, wa, wb, "last") &&
        when_next_word(t, len, wb, &i, &wb) &&
        (when_word_eq(t, i, wb, "night") || when_word_eq(t, i, wb, "week") ||
         when_word_eq(t, i, wb, "time") || when_word_eq(t, i, wb, "year") ||
         when_word_eq(t, i, wb, "month")))
      return wa + 1;
  }
  return 0;
}

/* Does the phrase itself point ahead ("tomorrow", "next friday", "in 2
** hours")? Then a past verb around it does not make it past. */
static int points_ahead(const when_cand *c) {
  const when_form *f = &c->form;
  if (f->form == F_DAY_COUNT || f->form == F_NEXT_UNIT) return 1;
  if (f->form == F_DURATION) return f->dur.marker && !f->dur.later;
  if (f->form == F_GENERAL) return f->day.future;
  return 0;
}

/* ---- hints --------------------------------------------------------------- */

/* Does [a, b) name a clock time ("9:30", "5pm", "at 7")? */
static int clock_in(const char *t, size_t len, size_t a, size_t b) {
  size_t wa, wb, pa = 0, pb = 0;
  for (size_t i = a; when_next_word(t, len, i, &wa, &wb) && wa < b; i = wb) {
    if (ascii_is_digit(t[wa]) && (when_time_like(t, wa, wb) ||
                                  (pb > pa && when_word_eq(t, pa, pb, "at"))))
      return 1;
    pa = wa, pb = wb;
  }
  return 0;
}

/* Which half of the day the words of [a, b) point to. */
static int meridiem_in(const char *t, size_t len, size_t a, size_t b) {
  int pm = has(t, len, a, b, 0, 0, hint_pm, N(hint_pm));
  int am = has(t, len, a, b, 0, 0, hint_am, N(hint_am));
  int day = has(t, len, a, b, 0, 0, hint_day, N(hint_day));
  if (pm && !am) return HINT_PM;
  if (am && !pm) return HINT_AM;
  if (day && !am && !pm) return HINT_DAYTIME;
  return HINT_NONE;
}

void when_context_hints(const char *t, size_t len, size_t pos, when_hints *h) {
  size_t sa, sb;
  memset(h, 0, sizeof *h);
  when_sentence(t, len, pos, &sa, &sb);
  /* the sentence's words, else the message's ("dinner is at 7; remind me
  ** at 6:30 to leave") */
  h->meridiem = meridiem_in(t, len, sa, sb);
  for (size_t a = 0; h->meridiem == HINT_NONE && a < len;) {
    size_t b = a;
    while (b < len && !when_sentence_end(t, len, b)) b++;
    if ((a != sa || b != sb) && clock_in(t, len, a, b) &&
        !past_in(t, len, a, b, 0, 0))
      h->meridiem = meridiem_in(t, len, a, b);
    a = b + 1;
  }
  h->timer = has(t, len, sa, sb, 0, 0, timer_words, N(timer_words));
}

/* ---- judging a candidate --------------------------------------------------- */

static int refuse(char *why, size_t n, const char *fmt, const char *w,
                  size_t wn) {
  snprintf(why, n, fmt, (int)(wn > 40 ? 40 : wn), w);
  return CTX_REFUSED;
}

/* The word before the phrase, skipping nothing; 0 when the clause starts. */
static int word_before(const char *t, size_t len, const when_cand *c, size_t *a,
                       size_t *b) {
  return when_prev_word(t, len, c->a, a, b) && *a >= c->ca;
}

static int word_after(const char *t, size_t len, const when_cand *c, size_t *a,
                      size_t *b) {
  return when_next_word(t, len, c->b, a, b) && *b <= c->cb;
}

/* "when it's" / "when it is" right before a time: that time. */
static int when_it_is(const char *t, size_t len, size_t a, size_t b) {
  size_t a2, b2, a3, b3;
  if (when_word_eq(t, a, b, "it's") || when_word_eq(t, a, b, "its"))
    return when_prev_word(t, len, a, &a2, &b2) &&
           when_word_eq(t, a2, b2, "when");
  return when_word_eq(t, a, b, "is") && when_prev_word(t, len, a, &a2, &b2) &&
         when_word_eq(t, a2, b2, "it") &&
         when_prev_word(t, len, a2, &a3, &b3) &&
         when_word_eq(t, a3, b3, "when");
}

/* After "or": a word that makes the phrase one of two alternatives ("at 4
** or 5pm", "in an hour or two", "tomorrow or the day after"). */
static int alternative_at(const char *t, size_t len, size_t a, size_t b) {
  size_t a2, b2;
  if (when_time_like(t, a, b) || when_word_eq(t, a, b, "maybe") ||
      ascii_is_digit(t[a]))
    return 1;
  if (when_number_word(t, a, b))
    return 1; /* "two" (not "a": "or a coffee break") */
  return when_word_eq(t, a, b, "the") && when_next_word(t, len, b, &a2, &b2) &&
         (when_time_like(t, a2, b2) || when_word_eq(t, a2, b2, "day") ||
          when_word_eq(t, a2, b2, "next"));
}

/* [a, b) could start a range of clock times: "3", "10:30", "9am",
** "9:30pm" (not "1:1", a meeting, or "404"). */
static int range_start_word(const char *t, size_t a, size_t b) {
  size_t i = a;
  while (i < b && i - a < 3 && ascii_is_digit(t[i])) i++;
  if (i == a || i - a > 2) return 0;
  if (i + 3 <= b && t[i] == ':' && ascii_is_digit(t[i + 1]) &&
      ascii_is_digit(t[i + 2]))
    i += 3;
  if (i + 2 == b &&
      (when_word_is(t + i, 2, "am") || when_word_is(t + i, 2, "pm")))
    i += 2;
  return i == b;
}

/* "3 to 5pm", "3 - 5pm": a range of times without "from" before the
** clock time c reads (its end); *ra: where the range starts. */
static int range_before(const char *t, size_t len, const when_cand *c,
                        size_t *ra) {
  size_t a, b, a2, b2;
  if (!c->form.clock.has || !ascii_is_digit(t[c->a]) ||
      !when_prev_word(t, len, c->a, &a, &b))
    return 0; /* the clock itself, not "at 5pm" */
  if (a >= c->ca && when_word_eq(t, a, b, "to") &&
      when_prev_word(t, len, a, &a2, &b2) && a2 >= c->ca &&
      range_start_word(t, a2, b2)) {
    *ra = a2;
    return 1;
  }
  /* a spaced dash ends a clause (when_msg.c): read across it */
  int dashes = 0;
  for (size_t i = b; i < c->a; i++) {
    if (t[i] == '-') dashes++;
    else if (!when_is_blank(t[i])) return 0;
  }
  if (dashes == 1 && range_start_word(t, a, b)) {
    *ra = a;
    return 1;
  }
  return 0;
}

/* Guards: a hedge, deadline or event before the phrase, "ago" after it. */
static int judge_guards(const char *t, size_t len, when_cand *c, char *why,
                        size_t n) {
  size_t a, b, a2, b2;
  if (word_before(t, len, c, &a, &b) && when_it_is(t, len, a, b))
    return CTX_OK; /* "remind me when it's 5pm": at 5pm */
  if (word_before(t, len, c, &a, &b)) {
    const char *w = t + a;
    size_t wn = b - a;
    if (when_word_eq(t, a, b, "by") || when_word_eq(t, a, b, "due") ||
        when_word_eq(t, a, b, "than")) /* "no later than 5pm" */
      return refuse(why, n,
                    "'%.*s ...' is a deadline, not a time to "
                    "remind: name the time to be reminded",
                    w, wn);
    if (when_word_in(t, a, b, guard_vague, N(guard_vague)))
      return refuse(why, n,
                    "'%.*s' makes the time vague: name the time "
                    "itself",
                    w, wn);
    if (when_word_in(t, a, b, guard_event, N(guard_event)))
      return refuse(why, n,
                    "'%.*s ...' ties the time to an event, not to a "
                    "clock: name the time instead",
                    w, wn);
    if (when_word_eq(t, a, b, "from") && c->form.form != F_DURATION)
      return refuse(why, n, "'from %.*s' starts a period: say when to remind",
                    t + c->a, c->b - c->a);
    if (when_word_in(t, a, b, guard_past, N(guard_past)))
      return refuse(why, n,
                    "'%.*s ...' points to the past: only future times "
                    "can be scheduled",
                    w, wn);
    if (when_word_in(t, a, b, guard_other, N(guard_other)) &&
        !when_form_recurs(&c->form))
      return CTX_WEAK;
    if (when_word_eq(t, a, b, "of") && when_prev_word(t, len, a, &a2, &b2) &&
        (when_word_eq(t, a2, b2, "end") || when_word_eq(t, a2, b2, "start") ||
         when_word_eq(t, a2, b2, "beginning") ||
         when_word_eq(t, a2, b2, "middle")))
      return refuse(why, n,
                    "'%.*s of ...' makes the time vague: name the "
                    "day and time",
                    t + a2, b2 - a2);
    if (when_word_eq(t, a, b, "time") && when_prev_word(t, len, a, &a2, &b2) &&
        (when_word_eq(t, a2, b2, "some") || when_word_eq(t, a2, b2, "any")))
      return refuse(why, n,
                    "'%.*s time' makes the time vague: name the time "
                    "itself",
                    t + a2, b2 - a2);
    if (when_word_eq(t, a, b, "some") || when_word_eq(t, a, b, "point"))
      return refuse(why, n,
                    "'%.*s' makes the time vague: name the time "
                    "itself",
                    w, wn);
    if (c->form.form == F_DURATION &&
        (when_word_eq(t, a, b, "back") || when_word_eq(t, a, b, "there") ||
         when_word_eq(t, a, b, "home") || when_word_eq(t, a, b, "ready") ||
         when_word_eq(t, a, b, "done") || when_word_eq(t, a, b, "free") ||
         when_word_eq(t, a, b, "finished") || when_word_eq(t, a, b, "out")))
      return CTX_WEAK; /* "back in 5 mins": when the speaker is, not a task */
    if (when_word_eq(t, a, b, "for") &&
        (c->form.form == F_NOW ||
         (c->form.form == F_DURATION && !c->form.dur.marker)))
      return CTX_WEAK; /* "for now", "for 2 hours" */
    /* "after the meeting tomorrow": an event word a few words back */
    size_t e = a;
    for (int k = 0; k < 3 && when_prev_word(t, len, e, &a2, &b2) && a2 >= c->ca;
         k++, e = a2) {
      if (has(t, len, a2, b2, 0, 0, markers, N(markers))) break;
      if (when_word_in(t, a2, b2, guard_event, N(guard_event)) &&
          !when_word_eq(t, a2, b2, "once") && !when_word_eq(t, a2, b2, "when"))
        return refuse(why, n,
                      "'%.*s ...' ties the time to an event, not to "
                      "a clock: name the time instead",
                      t + a2, b2 - a2);
    }
  }
  size_t ra;
  if (range_before(t, len, c, &ra))
    return refuse(why, n,
                  "'%.*s' is a range of times: say when to remind (its "
                  "start, or 'from ... to ...')",
                  t + ra, c->b - ra);
  static const char *const vague_after[] = {"sometime", "anytime",  "whenever",
                                            "someday",  "ish",      "-ish",
                                            "latest",   "earliest", "sharpish"};
  if (when_next_word(t, len, c->b, &a, &b) &&
      when_word_in(t, a, b, vague_after, N(vague_after)))
    return refuse(why, n, "'%.*s' makes the time vague: name the time itself",
                  t + a, b - a); /* "tomorrow sometime" */
  if (c->form.form == F_GENERAL && !c->form.clock.has &&
      when_next_word(t, len, c->b, &a, &b)) {
    int vague = when_word_eq(t, a, b, "early") || when_word_eq(t, a, b, "late");
    if (when_word_eq(t, a, b, "first") && when_next_word(t, len, b, &a2, &b2) &&
        when_word_eq(t, a2, b2, "thing"))
      vague = 1, b = b2;
    if (vague) /* "friday late", "tomorrow first thing" */
      return refuse(why, n, "'%.*s' makes the time vague: name the time itself",
                    t + a, b - a);
  }
  if (when_next_word(t, len, c->b, &a, &b) && when_word_eq(t, a, b, "or") &&
      when_next_word(t, len, b, &a2, &b2) &&
      (when_word_eq(t, a2, b2, "so") || when_word_eq(t, a2, b2, "thereabouts")))
    return refuse(why, n, "'%.*s or so' is vague: name the time itself",
                  t + c->a, c->b - c->a);
  if (when_next_word(t, len, c->b, &a, &b) &&
      !memchr(t + c->b, '\n', a - c->b) &&
      (when_word_in(t, a, b, guard_vague, N(guard_vague)) ||
       when_word_eq(t, a, b, "by")) &&
      when_next_word(t, len, b, &a2, &b2) &&
      (when_time_like(t, a2, b2) || ascii_is_digit(t[a2])))
    return refuse(why, n, "'%.*s' makes the time vague: name the time itself",
                  t + a, b - a); /* "on sunday, around 4" */
  if (when_next_word(t, len, c->b, &a, &b) && when_word_eq(t, a, b, "or") &&
      !memchr(t + c->b, '\n', a - c->b) &&
      when_next_word(t, len, b, &a2, &b2) && alternative_at(t, len, a2, b2))
    return refuse(why, n, "'%.*s' " WHEN_WHY_ALTERNATIVE, t + c->a,
                  c->b - c->a);
  if (word_after(t, len, c, &a, &b)) {
    if (when_word_eq(t, a, b, "or")) {
      if (when_next_word(t, len, b, &a2, &b2) &&
          (when_time_like(t, a2, b2) || when_word_eq(t, a2, b2, "in") ||
           when_word_eq(t, a2, b2, "at") || when_word_eq(t, a2, b2, "maybe") ||
           (ascii_is_digit(t[a2]))))
        return refuse(why, n, "'%.*s' " WHEN_WHY_ALTERNATIVE, t + c->a,
                      c->b - c->a);
    } else if ((when_word_in(t, a, b, guard_vague, N(guard_vague)) ||
                when_word_eq(t, a, b, "by")) &&
               when_next_word(t, len, b, &a2, &b2) &&
               (when_time_like(t, a2, b2) || ascii_is_digit(t[a2]))) {
      return refuse(why, n,
                    "'%.*s' makes the time vague: name the time "
                    "itself",
                    t + a, b - a);
    } else if (when_word_in(t, a, b, guard_after, N(guard_after))) {
      if (when_word_eq(t, a, b, "ago") || when_word_eq(t, a, b, "earlier"))
        return refuse(why, n,
                      "'%.*s ago' is in the past: only future times "
                      "can be scheduled",
                      t + c->a, c->b - c->a);
      if (when_word_eq(t, a, b, "long")) {
        if (c->form.form == F_DURATION ||
            (c->form.form == F_GENERAL && c->form.day.kind == D_NONE))
          return CTX_WEAK; /* "3:45 long" */
        return CTX_OK;
      }
      return refuse(why, n,
                    "'%.*s' is not the whole time: it is tied to "
                    "what follows it",
                    t + c->a, c->b - c->a);
    }
  }
  if (word_before(t, len, c, &a, &b) && when_word_eq(t, a, b, "or") &&
      when_prev_word(t, len, a, &a2, &b2) &&
      (when_time_like(t, a2, b2) || ascii_is_digit(t[a2])))
    return refuse(why, n, "'%.*s' " WHEN_WHY_ALTERNATIVE, t + c->a,
                  c->b - c->a);
  return CTX_OK;
}

/* Numbers that are not times: "John 3:16", "the 2:15 train", "at 7
** dollars", a bare duration, "the 3rd" alone. */
static int judge_numbers(const char *t, size_t len, when_cand *c,
                         const when_hints *h) {
  const when_form *f = &c->form;
  size_t a, b;
  int clock_only = f->form == F_GENERAL && f->clock.has &&
                   f->day.kind == D_NONE && f->part == P_NONE;
  int starts_at = when_word_is(t + c->a, 2, "at") || t[c->a] == '@' ||
                  when_word_is(t + c->a, 4, "from");
  if (clock_only && !starts_at && !f->clock.ampm &&
      f->clock.kind == CLK_CLOCK) { /* "3:16" without "at" */
    size_t ha, hb, m;
    int at_head = clause_head(t, len, c->ca, c->cb, &ha, &hb) && ha == c->a;
    if (!at_head && !request_in(t, len, c->ca, c->cb, c->a, c->b, &m))
      return CTX_WEAK; /* "set alarm 7:30" is a request */
  }
  if (clock_only && !starts_at && word_before(t, len, c, &a, &b) &&
      when_word_in(t, a, b, determiners, N(determiners)))
    return CTX_WEAK; /* "the 2:15 train", "my 3pm reminder" */
  if (clock_only && f->clock.kind == CLK_BARE &&
      word_after(t, len, c, &a, &b) &&
      (when_word_eq(t, a, b, "of") || when_word_eq(t, a, b, "dollars") ||
       when_word_eq(t, a, b, "euros") || when_word_eq(t, a, b, "pounds") ||
       when_word_eq(t, a, b, "bucks") || when_word_eq(t, a, b, "percent") ||
       when_word_eq(t, a, b, "people") || when_word_eq(t, a, b, "degrees") ||
       when_word_eq(t, a, b, "kg") || when_word_eq(t, a, b, "miles") ||
       when_word_eq(t, a, b, "km") || when_word_eq(t, a, b, "times") ||
       when_word_eq(t, a, b, "points") || when_word_eq(t, a, b, "years")))
    return CTX_WEAK;
  if (f->form == F_DURATION && !f->dur.marker && !h->timer) return CTX_WEAK;
  static const char *const adverbs[] = {"hourly", "daily", "nightly", "weekly",
                                        "monthly"};
  if (when_word_in(t, c->a, c->b, adverbs, N(adverbs)) &&
      word_after(t, len, c, &a, &b) && c->b < len && when_is_blank(t[c->b]) &&
      !when_word_eq(t, a, b, "at") && !when_word_eq(t, a, b, "on") &&
      !when_word_eq(t, a, b, "from") && !when_word_eq(t, a, b, "to"))
    return CTX_WEAK; /* "hourly backups": an adjective; not "hourly to ..." */
  if (f->form == F_DURATION && f->dur.ms == 1000 && !f->dur.calendar)
    return CTX_WEAK; /* "in a sec": a figure of speech */
  if (f->form == F_GENERAL && !f->clock.has && f->part == P_NONE) {
    static const char *const short_days[] = {"sat",  "sun", "wed", "mon",
                                             "tue",  "thu", "fri", "tues",
                                             "thur", "weds"};
    size_t slash = 0, digits = 0;
    for (size_t i = c->a; i < c->b; i++) {
      if (t[i] == '/') slash++;
      else if (ascii_is_digit(t[i])) digits++;
    }
    if (slash == 1 && digits == c->b - c->a - 1)
      return CTX_WEAK; /* "24/7", "1/2" */
    if (when_word_in(t, c->a, c->b, short_days, N(short_days)))
      return CTX_WEAK;          /* "I sat down", "they wed in june" */
    if (f->day.kind == D_DOM) { /* "the 3rd floor": not a date alone */
      static const char *const conn[] = {"to", "and", "then", "please", "or"};
      if (when_word_is(t + c->a, 3, "the") ||
          (word_after(t, len, c, &a, &b) &&
           !when_word_in(t, a, b, conn, N(conn)) && t[c->b] == ' '))
        return CTX_WEAK;
    }
    /* "monday mornings", "friday nights": any such day */
    if (word_after(t, len, c, &a, &b) &&
        (when_word_eq(t, a, b, "mornings") || when_word_eq(t, a, b, "nights") ||
         when_word_eq(t, a, b, "evenings") ||
         when_word_eq(t, a, b, "afternoons")))
      return CTX_WEAK;
  }
  return CTX_OK;
}

static const char *const task_markers[] = {"remind",   "remember", "forget",
                                           "reminder", "need to",  "have to"};

/* A cancellation or a declined time is not a schedule to create: "cancel
** my 3pm reminder", "stop reminding me", "don't ping me tonight", "I can't
** make it at 3pm". Not when the cancelling is the task ("remind me to
** cancel the trial"). */
static int judge_cancel(const char *t, size_t len, const when_cand *c,
                        char *why, size_t n) {
  size_t w, a, b;
  w = when_find_word(t, len, c->sa, c->sb, c->a, c->b, cancel_strong,
                     N(cancel_strong));
  if (!w) { /* "cancel my 3pm meeting", not "cancel the trial" */
    w = when_find_word(t, len, c->sa, c->sb, c->a, c->b, cancel_events,
                       N(cancel_events));
    /* with a reminder or an event after it, or before the phrase ("cancel
    ** the cab for tomorrow 6am": the time is the thing cancelled) */
    if (w &&
        !has(t, len, w - 1, c->sb, c->a, c->b, reminder_objects,
             N(reminder_objects)) &&
        !has(t, len, w - 1, c->sb, c->a, c->b, event_objects,
             N(event_objects)) &&
        w - 1 > c->a)
      w = 0;
    if (w && has(t, len, c->sa, w - 1, 0, 0, task_markers, N(task_markers)) &&
        !has(t, len, w - 1, c->sb, c->a, c->b, reminder_objects,
             N(reminder_objects)))
      w = 0; /* the task is to cancel something */
  }
  if (!w) {
    w = when_find_word(t, len, c->sa, c->sb, c->a, c->b, cancel_weak,
                       N(cancel_weak));
    if (w && !has(t, len, w - 1, c->sb, c->a, c->b, reminder_objects,
                  N(reminder_objects)))
      w = 0;
  }
  for (int k = 0; !w && k < N(negations); k++) { /* "don't remind me" */
    const char *neg[1] = {negations[k]};
    size_t ng = when_find_word(t, len, c->sa, c->sb, c->a, c->b, neg, 1);
    if (!ng || !when_next_word(t, len, ng - 1, &a, &b)) continue;
    for (int j = 0; j < 3 && when_next_word(t, len, b, &a, &b); j++)
      if (when_word_in(t, a, b, request_verbs, N(request_verbs))) w = ng;
  }
  if (!w || !when_next_word(t, len, w - 1, &a, &b)) return 0;
  refuse(why, n,
         "'%.*s ...' cancels or declines: it is not a new schedule "
         "to create",
         t + a, b - a);
  return 1;
}

static const char *const bare_words[] = {
    "at", "on", "in",   "by",     "for", "the",  "and", "then",
    "so", "ok", "okay", "please", "pls", "also", "just"};

/* Are the words of the clause, outside the phrase, only connectives? */
static int bare_clause(const char *t, size_t len, const when_cand *c) {
  size_t wa, wb;
  for (size_t i = c->ca; when_next_word(t, len, i, &wa, &wb) && wa < c->cb;
       i = wb) {
    if (wa >= c->a && wa < c->b) continue;
    if (!when_word_in(t, wa, wb, bare_words, N(bare_words))) return 0;
  }
  return 1;
}

static const char *const det_heads[] = {"the",   "my",    "our",   "your",
                                        "his",   "her",   "their", "its",
                                        "these", "those", "this",  "that"};

/* Does the clause tell something ("the dentist is on friday", "I called",
** "the kids play outside")? A verb of its own, a subject pronoun, a past
** tense, or a noun phrase at its head (outside the phrase). */
static int statement_in(const char *t, size_t len, const when_cand *c) {
  size_t a, b;
  if (has(t, len, c->ca, c->cb, c->a, c->b, predicates, N(predicates)) ||
      has(t, len, c->ca, c->cb, c->a, c->b, subjects, N(subjects)) ||
      past_in(t, len, c->ca, c->cb, c->a, c->b))
    return 1;
  return clause_head(t, len, c->ca, c->cb, &a, &b) && (a < c->a || a >= c->b) &&
         when_word_in(t, a, b, det_heads, N(det_heads));
}

/* The request, the statement, the past, questions and sign-offs. */
static int judge_clause(const char *t, size_t len, when_cand *c, char *why,
                        size_t n) {
  size_t at, a, b, w;
  int req_clause = request_in(t, len, c->ca, c->cb, c->a, c->b, &at);
  int req_sentence =
      req_clause || request_in(t, len, c->sa, c->sb, c->a, c->b, &at);
  int statement = statement_in(t, len, c);
  /* a clause of its own in a request's sentence is the request's time only
  ** when it says nothing else ("remind me, tomorrow at 9am, to ...") */
  c->request =
      req_clause || (req_sentence && !statement && bare_clause(t, len, c));
  if (c->request) { /* right next to the marker: "remind me at 5pm ..." */
    size_t ma, mb;
    c->marker_next = 0;
    if (when_prev_word(t, len, c->a, &ma, &mb) && ma >= c->sa &&
        (when_word_eq(t, ma, mb, "me") || when_word_eq(t, ma, mb, "reminder")))
      c->marker_next = 1;
    if (when_next_word(t, len, c->b, &ma, &mb) &&
        (when_word_eq(t, ma, mb, "remind") || when_word_eq(t, ma, mb, "ping")))
      c->marker_next = 1;
  }
  if (judge_cancel(t, len, c, why, n)) return CTX_REFUSED;
  if (c->request) return CTX_OK;
  /* a question that asks nothing to be done */
  if (c->sb < len && t[c->sb] == '?')
    return refuse(why, n,
                  "'%.*s' is in a question, not a request: ask for "
                  "the reminder itself",
                  t + c->a, c->b - c->a);
  /* sign-offs ("have a good one tomorrow"; not "I have a meeting at 3pm") */
  size_t so = when_find_word(t, len, c->ca, c->a, 0, 0, social, N(social));
  if (word_before(t, len, c, &a, &b) && so && !subject_has(t, len, so - 1))
    return CTX_WEAK;
  /* a day as the subject: "tomorrow is another day" */
  if (word_after(t, len, c, &a, &b) &&
      when_word_in(t, a, b, subject_verbs, N(subject_verbs)))
    return CTX_WEAK;
  /* "the shop opens at 9 every day": a recurring time in a statement tells
  ** a habit; a request asks for it ("remind me every day at 9") */
  if (when_form_recurs(&c->form) && statement)
    return refuse(why, n,
                  "'%.*s' tells a habit, not a request: ask for the "
                  "reminder ('remind me ...')",
                  t + c->a, c->b - c->a);
  /* "we're closed on monday", "it's my birthday on friday": a statement
  ** that names a day but no time asks for nothing */
  if (c->form.form == F_GENERAL && !c->form.clock.has && statement)
    return refuse(why, n,
                  "'%.*s' names a day in a statement, not a time to "
                  "remind: say when ('remind me on friday at 9am')",
                  t + c->a, c->b - c->a);
  /* habits */
  if ((w = when_find_word(t, len, c->ca, c->cb, c->a, c->b, habitual,
                          N(habitual))) != 0)
    return refuse(why, n, "'%.*s': a habit, not a time to schedule", t + w - 1,
                  when_chunk_end(t, len, w - 1) - (w - 1));
  /* the past */
  if ((w = past_in(t, len, c->ca, c->cb, c->a, c->b)) != 0 &&
      !points_ahead(c)) {
    when_next_word(t, len, w - 1, &a, &b);
    return refuse(why, n,
                  "'%.*s': the sentence tells of the past, so its "
                  "time is not a schedule",
                  t + a, b - a);
  }
  /* "2 hours later we left": later outside a request is narration */
  if (c->form.form == F_DURATION && c->b >= 5 &&
      when_word_is(t + c->b - 5, 5, "later"))
    return CTX_WEAK;
  if (c->form.form == F_NOW) return CTX_WEAK; /* "right now the build is red" */
  if (c->form.form == F_GENERAL && c->form.day.kind == D_REL &&
      c->form.day.rel == 0 && !c->form.clock.has && c->form.part == P_NONE)
    return CTX_WEAK; /* "today was a good day" */
  return CTX_OK;
}

/* Refuse: the word [a, b) next to the time was not read with it. */
static int unread_next(char *why, size_t n, const char *t, size_t a, size_t b) {
  return refuse(why, n,
                "cannot read '%.*s' next to the time: say the whole time "
                "plainly",
                t + a, b - a);
}

/* A meal or a time of day the grammar does not read, beside a phrase that
** names no clock time nor part of the day: "tomorrow around lunch",
** "sunday at teatime", "mid-morning every day" (the phrase alone would
** take midnight, or now's clock time). Right after the phrase (one
** preposition may come between) or right before it. */
static int meal_beside(const char *t, size_t len, const when_cand *c, size_t *a,
                       size_t *b) {
  static const char *const meals[] = {
      "breakfast",    "brunch",      "lunch",     "dinner",
      "supper",       "tea",         "teatime",   "bedtime",
      "mid-morning",  "midmorning",  "mid-day",   "mid-afternoon",
      "midafternoon", "mid-evening", "elevenses", "lunchbreak"};
  static const char *const preps[] = {"at",    "around", "about", "by",
                                      "after", "before", "over",  "during",
                                      "round", "near",   "for"};
  if (c->form.clock.has || c->form.part != P_NONE ||
      (c->form.form != F_GENERAL && !when_form_recurs(&c->form)) ||
      c->form.form == F_INTERVAL)
    return 0;
  if (word_after(t, len, c, a, b)) {
    if (when_word_in(t, *a, *b, preps, N(preps)) &&
        !(when_next_word(t, len, *b, a, b) && *b <= c->cb))
      return 0;
    if (when_word_in(t, *a, *b, meals, N(meals))) return 1;
  }
  return word_before(t, len, c, a, b) &&
         when_word_in(t, *a, *b, meals, N(meals));
}

/* A day named by an event the grammar cannot date, beside the phrase:
** "on my birthday at 9am", "at 9am on payday", "at 10 on the day of the
** exam" ("on", then up to three words, one of them such a day). *a, *b:
** "on" .. the day's word. */
static int event_day_beside(const char *t, size_t len, const when_cand *c,
                            size_t *a, size_t *b) {
  static const char *const days[] = {
      "birthday", "bday",       "birthday's", "anniversary", "payday",
      "wedding",  "graduation", "holiday",    "vacation",    "day"};
  size_t wa, wb, pa, pb;
  int k = 0;
  /* before: "on my birthday at 9am" */
  for (size_t p = c->a; k < 4 && when_prev_word(t, len, p, &wa, &wb) &&
                        wa >= c->ca && !when_time_like(t, wa, wb);
       p = wa, k++) {
    if (!when_word_eq(t, wa, wb, "on")) continue;
    if (!when_prev_word(t, len, c->a, &pa, &pb) ||
        !when_word_in(t, pa, pb, days, N(days)))
      break;
    *a = wa, *b = pb;
    return 1;
  }
  /* after: "at 9am on my birthday" */
  if (!word_after(t, len, c, &wa, &wb) || !when_word_eq(t, wa, wb, "on"))
    return 0;
  *a = wa;
  k = 0;
  for (size_t p = wb; k < 3 && when_next_word(t, len, p, &pa, &pb) &&
                      pb <= c->cb && !when_time_like(t, pa, pb);
       p = pb, k++) {
    if (when_word_in(t, pa, pb, days, N(days))) {
      *b = pb;
      return 1;
    }
  }
  return 0;
}

/* A place whose clock the grammar reads, right before the phrase: "in
** tokyo at 9am", "when I land in Tokyo at 9am" -- its clock or ours? */
static int place_before(const char *t, size_t len, const when_cand *c,
                        size_t *a, size_t *b) {
  size_t pa, pb;
  if (!word_before(t, len, c, a, b) || !when_zone_name_is(t + *a, *b - *a) ||
      !when_prev_word(t, len, *a, &pa, &pb) || pa < c->ca ||
      !when_word_eq(t, pa, pb, "in"))
    return 0;
  *a = pa;
  return 1;
}

/* A time-like word next to the phrase that it did not read. */
static int judge_neighbours(const char *t, size_t len, when_cand *c, char *why,
                            size_t n) {
  static const char *const not_zones[] = {
      "on",   "in",    "at",   "every", "each",  "the",  "this", "that", "same",
      "any",  "some",  "no",   "one",   "first", "last", "next", "full", "part",
      "free", "spare", "real", "from",  "by",    "of",   "for",  "to"};
  size_t a, b, a3, b3;
  if (word_after(t, len, c, &a, &b)) {
    /* a zone it did not read: "at 9am Pacific", "at noon UTC+2", "at 9am
    ** Lagos time" (a place the grammar does not know) */
    if (when_zone_name_is(t + a, b - a)) return unread_next(why, n, t, a, b);
    if (when_next_word(t, len, b, &a3, &b3) && b3 <= c->cb &&
        when_word_eq(t, a3, b3, "time") &&
        !when_word_in(t, a, b, not_zones, N(not_zones)))
      return unread_next(why, n, t, a, b3);
  }
  if (word_after(t, len, c, &a, &b)) {
    size_t a2 = a, b2 = b;
    if ((when_word_eq(t, a, b, "at") || when_word_eq(t, a, b, "on")) &&
        when_next_word(t, len, b, &a2, &b2) && b2 > c->cb)
      a2 = b2 = b;
    int on = a2 != a && when_word_eq(t, a, b, "on");
    if ((when_time_like(t, a2, b2) || when_numeric_date(t, len, a2, b2, on)) &&
        /* "sat", "1:1" (a meeting) are no times */
        !(b2 - a2 == 3 &&
          (when_word_is(t + a2, 3, "sat") || when_word_is(t + a2, 3, "1:1"))))
      return unread_next(why, n, t, a2, b2);
  }
  if (meal_beside(t, len, c, &a, &b) || event_day_beside(t, len, c, &a, &b) ||
      place_before(t, len, c, &a, &b))
    return unread_next(why, n, t, a, b);
  if ((word_before(t, len, c, &a, &b) && when_business_end(t, len, a, b, -1)) ||
      (word_after(t, len, c, &a, &b) && when_business_end(t, len, a, b, +1)))
    return unread_next(why, n, t, a, b); /* "close of business friday" */
  if (word_before(t, len, c, &a, &b) &&
      (when_ordinal_word(t, a, b) || when_ordinal_in_words(t, a, b)) &&
      c->form.day.kind == D_NONE) /* "on the 1st and 15th at 9am" */
    return unread_next(why, n, t, a, b);
  /* a weekday of a month: "first monday of january", "the last friday" */
  if ((c->form.day.kind == D_WEEKDAY || c->form.day.kind == D_NEXT_WEEKDAY) &&
      word_before(t, len, c, &a, &b) && when_day_of_word(t, a, b) &&
      !when_time_like(t, a, b))
    return unread_next(why, n, t, a, c->b);
  if (c->form.form == F_GENERAL && c->form.day.kind != D_NONE &&
      word_after(t, len, c, &a, &b) && when_word_eq(t, a, b, "of") &&
      when_next_word(t, len, b, &a3, &b3) && b3 <= c->cb &&
      (when_month_name_at(t, a3, b3) || when_word_eq(t, a3, b3, "may")))
    return unread_next(why, n, t, c->a, b3); /* "monday of january" */
  if (word_before(t, len, c, &a, &b) && when_month_name_at(t, a, b))
    return unread_next(why, n, t, a, b); /* "... of january at 9am" */
  if (word_before(t, len, c, &a, &b) && b - a <= 2 && ascii_is_digit(t[a]) &&
      ascii_is_digit(t[b - 1]) && c->form.form == F_GENERAL &&
      !c->form.clock.has)
    return unread_next(why, n, t, a, b);
  if (word_before(t, len, c, &a, &b)) {
    size_t a0, b0;
    /* "on 2025/03/07 at 9am", "07.03.2025 9am", "on 7.3.25 at 9am" */
    int on =
        when_prev_word(t, len, a, &a0, &b0) && when_word_eq(t, a0, b0, "on");
    if (when_numeric_date(t, len, a, b, on))
      return unread_next(why, n, t, a, b);
    /* "the 5th of next month": a day of the time, not the time */
    if (when_word_eq(t, a, b, "of") && when_prev_word(t, len, a, &a0, &b0) &&
        a0 >= c->ca && when_day_of_word(t, a0, b0))
      return unread_next(why, n, t, a0, b);
  }
  static const char *const parts[] = {"morning", "afternoon", "evening",
                                      "night", "arvo"};
  if (word_before(t, len, c, &a, &b) && when_time_like(t, a, b) &&
      !when_word_eq(t, a, b, "sat") && !when_word_eq(t, a, b, "sun") &&
      (!when_word_in(t, a, b, parts, N(parts)) || /* "movie night at 8" */
       (!c->form.clock.has && c->form.part == P_NONE)))
    return unread_next(why, n, t, a, b); /* "morning tomorrow" */
  return CTX_OK;
}

/* A bound said earlier in a recurring phrase's sentence: "from next
** monday, every day at 8am", "beginning in january, every monday at 9am",
** "after next week, remind me every monday", "until christmas, every
** friday": a word that starts or ends a schedule, then a time or a season
** ("in", "on", "the", "of" may come between). *a, *b: the
** bound and its time's first word. */
static int bound_earlier(const char *t, size_t len, const when_cand *c,
                         size_t *a, size_t *b) {
  static const char *const leads[] = {"from",  "starting", "beginning",
                                      "after", "until",    "till",
                                      "til",   "effective"};
  static const char *const links[] = {"in", "on", "the", "of"};
  static const char *const dates[] = {
      "christmas", "xmas",   "easter", "thanksgiving", "halloween",
      "holidays",  "new",    "end",    "mid",          "summer",
      "winter",    "spring", "autumn", "school",       "term"};
  size_t wa, wb, na, nb;
  for (size_t i = c->sa; when_next_word(t, len, i, &wa, &wb) && wb <= c->a;
       i = wb) {
    if (!when_word_in(t, wa, wb, leads, N(leads)) ||
        !when_next_word(t, len, wb, &na, &nb))
      continue;
    if (when_word_in(t, na, nb, links, N(links)) &&
        !when_next_word(t, len, nb, &na, &nb))
      continue;
    if (nb > c->a) continue;
    if (ascii_is_digit(t[na]) || when_time_like(t, na, nb) ||
        when_month_name_at(t, na, nb) || when_ordinal_word(t, na, nb) ||
        when_word_eq(t, na, nb, "next") || when_word_eq(t, na, nb, "today") ||
        when_word_in(t, na, nb, dates, N(dates)) ||
        (nb - na > 4 && t[na + 3] == '-' &&
         when_word_eq(t, na, na + 3, "mid"))) { /* "mid-january" */
      *a = wa, *b = nb;
      return 1;
    }
  }
  return 0;
}

/* "every" or "each" in a one-time phrase's clause, before a word of time
** ("every first of the month at 9am", "at 9am each quarter"): the clause
** asks for a recurrence the phrase did not read. *a, *b: the two words. */
static int every_in_clause(const char *t, size_t len, const when_cand *c,
                           size_t *a, size_t *b) {
  static const char *const units[] = {"day",     "month", "year",   "quarter",
                                      "weekday", "first", "second", "third",
                                      "fourth",  "last",  "other",  "single"};
  size_t wa, wb, na, nb;
  for (size_t i = c->ca; when_next_word(t, len, i, &wa, &wb) && wb <= c->cb;
       i = wb) {
    if (wa >= c->a && wb <= c->b) continue; /* inside the phrase */
    if (!(when_word_eq(t, wa, wb, "every") ||
          when_word_eq(t, wa, wb, "each")) ||
        !when_next_word(t, len, wb, &na, &nb) || nb > c->cb)
      continue;
    if (when_time_like(t, na, nb) || when_word_in(t, na, nb, units, N(units)) ||
        when_ordinal_word(t, na, nb) || ascii_is_digit(t[na])) {
      *a = wa, *b = nb;
      return 1;
    }
  }
  return 0;
}

/* Words around a phrase that change what it schedules, which it did not
** read: a bound or an exception after it ("every day at 9am until friday",
** "every day except weekends", "for a week", "starting monday", "during
** work hours"), a second time joined by "and" ("tomorrow at 9am and
** 5pm"), a recurrence word before a one-time phrase ("annually on march
** 3"). The phrase alone would schedule something else. */
static int judge_bounds(const char *t, size_t len, when_cand *c, char *why,
                        size_t n) {
  static const char *const any[] = {"except", "excluding", "until", "till",
                                    "til",    "through",   "thru",  "unless"};
  static const char *const recurring[] = {"starting", "beginning", "from",
                                          "during",   "while",     "ending"};
  static const char *const repeat_words[] = {
      "annually", "yearly", "monthly", "weekly", "daily", "nightly", "hourly"};
  int recurs = when_form_recurs(&c->form);
  size_t a, b, a2, b2;
  if (word_after(t, len, c, &a, &b)) {
    int next = when_next_word(t, len, b, &a2, &b2) && b2 <= c->cb;
    if (next && when_word_eq(t, a, b, "and") && when_word_eq(t, a2, b2, "then"))
      next = when_next_word(t, len, b2, &a2, &b2) && b2 <= c->cb; /* and then */
    int timed = next && (ascii_is_digit(t[a2]) || when_time_like(t, a2, b2) ||
                         when_word_eq(t, a2, b2, "next") ||
                         when_word_eq(t, a2, b2, "tomorrow"));
    if (when_word_in(t, a, b, any, N(any)) ||
        (recurs && ((when_word_in(t, a, b, recurring, N(recurring)) &&
                     (timed || !when_word_eq(t, a, b, "from"))) ||
                    (when_word_eq(t, a, b, "for") && next &&
                     when_duration_at(t, len, a2, b2))))) {
      size_t pn = c->b - c->a > 40 ? 40 : c->b - c->a;
      snprintf(why, n,
               "'%.*s %.*s ...' bounds or changes the time, which was not "
               "read: say the schedule alone",
               (int)pn, t + c->a, (int)(b - a > 40 ? 40 : b - a), t + a);
      return CTX_REFUSED;
    }
    size_t a3, b3;
    if (when_word_eq(t, a, b, "and") && next &&
        (ascii_is_digit(t[a2]) || when_time_like(t, a2, b2) ||
         when_word_eq(t, a2, b2, "at") ||
         (when_word_eq(t, a2, b2, "the") &&
          when_next_word(t, len, b2, &a3, &b3) && when_day_of_word(t, a3, b3))))
      return refuse(why, n,
                    "'%.*s and ...' names two times: make one schedule "
                    "each",
                    t + c->a, c->b - c->a);
  }
  static const char *const bound_before[] = {"except", "excluding", "starting",
                                             "beginning"};
  if (word_before(t, len, c, &a, &b)) {
    if (when_word_in(t, a, b, bound_before, N(bound_before)))
      return refuse(why, n,
                    "'%.*s ...' bounds or changes another time, which was "
                    "not read with it: say the schedule alone",
                    t + a, b - a);
    size_t a0 = a, b0 = b;
    if (when_word_eq(t, a, b, "then") && when_prev_word(t, len, a, &a2, &b2))
      a0 = a2, b0 = b2; /* "and then" */
    if (when_word_eq(t, a0, b0, "and") &&
        when_prev_word(t, len, a0, &a2, &b2) && a2 >= c->ca &&
        (ascii_is_digit(t[a2]) || when_time_like(t, a2, b2)))
      return refuse(why, n,
                    "'... and %.*s' names two times: make one schedule each",
                    t + c->a, c->b - c->a);
  }
  if (recurs && bound_earlier(t, len, c, &a, &b))
    return refuse(why, n,
                  "'%.*s' bounds the schedule, which was not read with it: "
                  "say the schedule alone",
                  t + a, b - a);
  if (!recurs && ((word_before(t, len, c, &a, &b) &&
                   when_word_in(t, a, b, repeat_words, N(repeat_words))) ||
                  every_in_clause(t, len, c, &a, &b)))
    return refuse(why, n,
                  "'%.*s' makes it recurring, which was not read: say "
                  "'every ...'",
                  t + a, b - a);
  return CTX_OK;
}

int when_context_judge(const char *t, size_t len, when_cand *c, char *why,
                       size_t n) {
  size_t a1, b1, a2, b2;
  when_hints h;
  int v;
  when_clause(t, len, c->a, &a1, &b1);
  when_clause(t, len, c->b > c->a ? c->b - 1 : c->a, &a2, &b2);
  c->ca = a1 < a2 ? a1 : a2;
  c->cb = b1 > b2 ? b1 : b2;
  when_sentence(t, len, c->a, &c->sa, &c->sb);
  if (c->cb > c->sb) c->sb = c->cb;
  if (c->ca < c->sa) c->sa = c->ca;
  why[0] = 0;
  when_context_hints(t, len, c->a, &h);
  if ((v = judge_guards(t, len, c, why, n)) != CTX_OK) return v;
  if ((v = judge_bounds(t, len, c, why, n)) != CTX_OK) return v;
  if ((v = judge_numbers(t, len, c, &h)) != CTX_OK) return v;
  if ((v = judge_clause(t, len, c, why, n)) != CTX_OK) return v;
  return judge_neighbours(t, len, c, why, n);
}

/* ---- messages without a phrase -------------------------------------------- */

typedef struct vague_phrase {
  const char *words, *why;
} vague_phrase;

static const vague_phrase vague_phrases[] = {
    {"in a bit", "'in a bit' is vague: give a number ('in 20 minutes')"},
    {"in a sec", "'in a sec' is vague: give a number ('in 1 minute')"},
    {"in a while", "'in a while' is vague: give a number ('in 20 minutes')"},
    {"in a few", "'in a few' is vague: give a number ('in 3 hours')"},
    {"couple of", "'a couple of' is vague: give a number"},
    {"few", "'few' is vague: give a number"},
    {"some point", "'at some point' is vague: name the time"},
    {"sometime", "'sometime' is vague: name the time"},
    {"some time", "'some time' is vague: name the time"},
    {"soon", "'soon' is vague: say when ('in 2 hours', 'tomorrow at 9am')"},
    {"later", "'later' is vague: say when ('in 2 hours', 'at 5pm')"},
    {"eventually", "'eventually' is vague: name the time"},
    {"someday", "'someday' is vague: name the time"},
    {"one day", "'one day' is vague: name the time"},
    {"whenever", "'whenever' is vague: name the time"},
    {"asap", "'asap' is vague: say when ('now', 'in 10 minutes')"},
    {"first thing", "'first thing' is vague: name the time ('at 8am')"},
    {"weekend", "'weekend' does not say which day or time: name them"},
    {"twice", "'twice a ...' does not say which times: name them"},
    {"now and then", "'now and then' is vague: say how often"},
    {"after", "'after ...' ties the time to an event, not to a clock: name "
              "the time instead"},
    {"before", "'before ...' ties the time to an event, not to a clock: name "
               "the time instead"},
    {"when", "'when ...' ties the time to an event, not to a clock: name the "
             "time instead"},
    {"once", "'once ...' ties the time to an event, not to a clock: name the "
             "time instead"},
    {"by", "'by ...' is a deadline, not a time to remind: name the time"},
};

const char *when_context_vague(const char *t, size_t len) {
  for (int k = 0; k < N(vague_phrases); k++) {
    const char *w[1] = {vague_phrases[k].words};
    if (when_find_word(t, len, 0, len, 0, 0, w, 1)) return vague_phrases[k].why;
  }
  size_t wa, wb;
  for (size_t i = 0; when_next_word(t, len, i, &wa, &wb); i = wb)
    if (when_ish_word(t, wa, wb))
      return "'-ish' makes the time vague: name the time itself";
  return NULL;
}

static const char *const rest_markers[] = {"reminder",
                                           "reminders",
                                           "remind me",
                                           "remember to",
                                           "remember",
                                           "ping me",
                                           "alert me",
                                           "notify me",
                                           "nudge me",
                                           "text me",
                                           "message me",
                                           "tell me",
                                           "can you",
                                           "could you",
                                           "would you",
                                           "will you",
                                           "can u",
                                           "could u",
                                           "please",
                                           "pls",
                                           "plz",
                                           "kindly",
                                           "don't forget",
                                           "dont forget",
                                           "do not forget",
                                           "don't let me forget",
                                           "make sure i",
                                           "set a reminder",
                                           "i need a reminder",
                                           "i need a nudge",
                                           "give me a nudge",
                                           "give me a reminder",
                                           "send me a reminder",
                                           "give me a shout",
                                           "give me a ping",
                                           "send me a ping",
                                           "rmd me",
                                           "rmnd me",
                                           "rmind me",
                                           "remnd me",
                                           "remid me",
                                           "remaind me",
                                           "i need to",
                                           "i have to",
                                           "need to"};

int when_context_asks(const char *t, size_t len, size_t a, size_t b) {
  return when_find_word(t, len, a, b, 0, 0, markers, N(markers)) != 0;
}

size_t when_context_marker_at(const char *t, size_t len, size_t a,
                              int at_head) {
  size_t wa, wb;
  if (!when_next_word(t, len, a, &wa, &wb) || wa != a) return 0;
  size_t lim = wb + 64 < len ? wb + 64 : len;
  for (int k = 0; k < N(rest_markers); k++) {
    const char *w[1] = {rest_markers[k]};
    if (!at_head && k < 2) continue; /* "reminder:" only heads a message */
    if (when_find_word(t, len, a, lim, 0, 0, w, 1) != a + 1) continue;
    size_t e = wb, p = wa, q = wb; /* the end of the marker's last word */
    for (const char *s = rest_markers[k]; (s = strchr(s, ' ')) != NULL; s++)
      if (when_next_word(t, len, q, &p, &q)) e = q;
    return e;
  }
  return 0;
}
