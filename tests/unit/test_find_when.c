/*
** test_find_when.c -- unit tests for when_find / when_found_rest
** (ext/time/when_find.c, when_context.c, when_rest.c; docs/when.md "Finding a
** phrase in a message", "The rest"): the time a message means, its span,
** and the task left.
**
** One table: a message, the phrase that must be found (as written in the
** message; NULL when none may be found: no time, or one refused), the rest
** that must remain (NULL: not checked) and, for some, the due instant. The
** reference instant is Wednesday 2025-03-05 10:00 UTC, zone UTC. Messages
** without a time include numbers that are not times ("call 3 people",
** "John 3:16"), the past, narration, questions, cancellations, hedges and
** statements. Expected values were worked out from the rules in
** docs/when.md, not copied from the output. Also: code point spans, the
** longest-phrase rule, the size bounds and a 4 KiB message.
*/
#include "time/civil.h"
#include "time/when.h"

#include <stdlib.h>
#include <time.h>

#include "check.h"

#define NOW_MS 1741168800000LL /* 2025-03-05T10:00:00Z, a Wednesday */

typedef struct fcase {
  int line;
  const char *text;
  const char *phrase; /* NULL: no phrase may be found */
  const char *rest;   /* NULL: not checked */
  const char *due;    /* ISO-8601 UTC, NULL: not checked */
} fcase;

#define F(text, phrase, rest) \
  { __LINE__, text, phrase, rest, NULL }
#define FD(text, phrase, rest, due) \
  { __LINE__, text, phrase, rest, due }
#define NONE(text) \
  { __LINE__, text, NULL, NULL, NULL }

static const fcase cases[] = {
    /* at the start */
    FD("tomorrow at 9am call Anna", "tomorrow at 9am", "call Anna",
       "2025-03-06T09:00:00Z"),
    F("Tomorrow at 9am, call Anna", "Tomorrow at 9am", "call Anna"),
    F("In 2 hours: check the oven", "In 2 hours", "check the oven"),
    F("at noon - lunch with Bob", "at noon", "lunch with Bob"),
    F("Friday 3pm: demo", "Friday 3pm", "demo"),
    F("every monday at 9am send the report", "every monday at 9am",
      "send the report"),
    F("Every weekday at 8:30 stand-up", "Every weekday at 8:30", "stand-up"),
    F("now: restart the worker", "now", "restart the worker"),
    F("tonight take out the trash", "tonight", "take out the trash"),
    F("2025-12-31T23:00:00Z new year call", "2025-12-31T23:00:00Z",
      "new year call"),
    F("9am tomorrow standup", "9am tomorrow", "standup"),
    F("next friday at 9am review", "next friday at 9am", "review"),
    F("+45 min check build", "+45 min", "check build"),
    F("+2h ping me", "+2h", ""), /* "ping me" is the request itself */
    F("end of day: send summary", "end of day", "send summary"),
    F("Daily at 7am water the plants", "Daily at 7am", "water the plants"),
    /* at the end */
    FD("remind me to call Anna tomorrow at 9am", "tomorrow at 9am", "call Anna",
       "2025-03-06T09:00:00Z"),
    F("call Anna in 20 minutes", "in 20 minutes", "call Anna"),
    F("call Anna in 20 minutes.", "in 20 minutes", "call Anna."),
    F("call Anna in 20 minutes!", "in 20 minutes", "call Anna!"),
    F("Is the build green? Check in 1 hour", "in 1 hour",
      "Is the build green? Check"),
    F("water the plants every day at 7am", "every day at 7am",
      "water the plants"),
    F("standup every weekday at 9:15", "every weekday at 9:15", "standup"),
    F("pay rent on the 1st of every month at 9am",
      "on the 1st of every month at 9am", "pay rent"),
    F("check the logs every 15 minutes", "every 15 minutes", "check the logs"),
    F("backup every 2 hours", "every 2 hours", "backup"),
    F("call mom on friday", "on friday", "call mom"),
    F("call mom this friday", "this friday", "call mom"),
    F("send the invoice on march 10th", "on march 10th", "send the invoice"),
    FD("send the invoice on march 10th at 9am", "on march 10th at 9am",
       "send the invoice", "2025-03-10T09:00:00Z"),
    F("renew the domain on 12/25/2026 at 9am", "on 12/25/2026 at 9am",
      "renew the domain"),
    F("renew the domain on 12/25", "on 12/25", "renew the domain"),
    F("Ship it at 5:30 pm", "at 5:30 pm", "Ship it"),
    F("Ship it at 5:30 p.m.", "at 5:30 p.m.", "Ship it"),
    F("Ship it at 17:45", "at 17:45", "Ship it"),
    F("deploy 3pm EST", "3pm EST", "deploy"),
    F("deploy tomorrow 8am JST", "tomorrow 8am JST", "deploy"),
    F("deploy at 10:00 +0530", "at 10:00 +0530", "deploy"),
    F("deploy at 9am -08:00", "at 9am -08:00", "deploy"),
    F("stretch in half an hour", "in half an hour", "stretch"),
    F("follow up in a fortnight", "in a fortnight", "follow up"),
    F("follow up in two days", "in two days", "follow up"),
    F("follow up 3 days from now", "3 days from now", "follow up"),
    F("follow up 2 weeks later", "2 weeks later", "follow up"),
    F("rotate keys in 1 year and 2 months", "in 1 year and 2 months",
      "rotate keys"),
    F("call in 1h30m", "in 1h30m", "call"),
    F("dentist the day after tomorrow", "the day after tomorrow", "dentist"),
    F("dentist the day after tomorrow at 10am",
      "the day after tomorrow at 10am", "dentist"),
    F("close the sprint at end of the week", "end of the week",
      "close the sprint"),
    F("plan next month", "next month", "plan"),
    F("read the news this evening", "this evening", "read the news"),
    F("call the bank tomorrow morning", "tomorrow morning", "call the bank"),
    F("jog friday afternoon", "friday afternoon", "jog"),
    F("party at midnight", "at midnight", "party"),
    F("lunch at midday", "at midday", "lunch"),
    NONE("restart the server at 7"), /* 7 am or 7 pm? */
    F("restart the server at 10", "at 10", "restart the server"),
    F("ping 2026-01-15 09:00", "2026-01-15 09:00", "ping"),
    NONE("taxes due 2026-01-15"), /* a deadline, not a time to remind */
    F("book the hall for march 3rd", "march 3rd", "book the hall"),
    F("book the hall for 3 march", "3 march", "book the hall"),
    F("book the hall for the 3rd of march", "the 3rd of march",
      "book the hall"),
    F("book the hall for march 3, 2026", "march 3, 2026", "book the hall"),
    F("yoga each tuesday and thursday at 18:30",
      "each tuesday and thursday at 18:30", "yoga"),
    F("yoga every mon, wed and fri at 9am", "every mon, wed and fri at 9am",
      "yoga"),
    F("clean up every weekend at 10am", "every weekend at 10am", "clean up"),
    F("run every half an hour", "every half an hour", "run"),
    /* in the middle */
    FD("remind me tomorrow at 9am to call Anna", "tomorrow at 9am", "call Anna",
       "2025-03-06T09:00:00Z"),
    F("please, in 2 hours, check the oven", "in 2 hours", "check the oven"),
    F("remind me on friday at 3pm to submit the form", "on friday at 3pm",
      "submit the form"),
    F("ask in 10 minutes whether the job finished", "in 10 minutes",
      "ask whether the job finished"),
    F("we meet next friday at 9am in room 101", "next friday at 9am",
      "we meet in room 101"),
    F("call 3 people tomorrow at 9am", "tomorrow at 9am", "call 3 people"),
    F("send version 2.5 at noon to QA", "at noon", "send version 2.5 to QA"),
    F("Book room 101 for tomorrow at 2pm please", "tomorrow at 2pm",
      "Book room 101"),
    F("Hey! Tomorrow at 9am we ship.", "Tomorrow at 9am", "we ship."),
    F("take pills every day at 8am and 8pm", "every day at 8am and 8pm",
      "take pills"),
    NONE("the report, due friday at 5pm, must be sent"), /* a deadline */
    F("line one\ntomorrow at 9am\nline three", "tomorrow at 9am",
      "line one\nline three"), /* a line break at a cut stays one */
    F("tab\ttomorrow\tat\t9am\tend", "tomorrow\tat\t9am", "tab end"),
    F("multiple   blanks   in 5 minutes   here", "in 5 minutes",
      "multiple   blanks here"),
    /* inside punctuation, quotes, brackets */
    F("Call Anna (tomorrow at 9am).", "tomorrow at 9am", "Call Anna."),
    F("Call Anna [at 5pm]", "at 5pm", "Call Anna"),
    NONE("Call Anna {at 5pm} now-ish"), /* a time-like word it cannot read */
    /* a date in numbers the grammar does not read, next to the time: the
    ** time alone would be another day */
    NONE("remind me on 07.03.2025 at 9am to renew"),
    NONE("remind me at 9am on 2025/03/27"),
    NONE("remind me on 7.3.25 at 9am"),
    NONE("remind me on the 5th of next month"), /* not 'next month' */
    NONE("remind me friday of next week at 3pm"),
    /* a range without "from", an alternative after "or", a bound */
    NONE("block 3 to 5pm for focus"),
    NONE("block 3 - 5pm for focus"),
    NONE("block 10:30 to 11:45am for review"),
    NONE("remind me in an hour or two"),
    NONE("remind me tomorrow or the day after"),
    NONE("remind me no later than 5pm"),
    F("move my 1:1 to 3pm tomorrow", "3pm tomorrow", "move my 1:1"),
    /* what bounds or changes the phrase, unread: refused, not dropped */
    NONE("remind me every day except weekends at 9am"),
    NONE("remind me every day at 9am starting monday"),
    NONE("remind me every day at 9am until friday"),
    NONE("remind me every day at 9am for a week"),
    NONE("remind me every day at 9am from monday"),
    NONE("remind me every 30 minutes during work hours"),
    NONE("remind me annually on march 3 at 9am"),
    NONE("remind me tomorrow at 9am and 5pm"),
    NONE("remind me at 9am and then at 5pm"),
    NONE("pay rent on the 1st and 15th at 9am"),
    /* a zone next to the time that it did not read */
    NONE("remind me at 9am Pacific"),
    NONE("remind me at noon UTC+2"),
    NONE("remind me at 9am Lagos time"),
    NONE("remind me at 3pm Pacific tomorrow"),
    F("remind me at 5pm on time", "at 5pm", "on time"),
    F("remind me every day at 9am for the standup", "every day at 9am",
      "for the standup"),
    F("remind me every day at 9am from home", "every day at 9am", "from home"),
    F("remind me at 3pm during the meeting", "at 3pm", "during the meeting"),
    F("remind me at 9am and then call Bob", "at 9am", "call Bob"),
    F("deploy 1.2.10 at 9am tomorrow", "at 9am tomorrow", "deploy 1.2.10"),
    F("we run 24/7 so ping me at 9am tomorrow", "at 9am tomorrow",
      "we run 24/7 so"),
    F("Say \"in 2 hours\" to the bot", "in 2 hours", "Say to the bot"),
    F("Say 'at noon' to the bot", "at noon", "Say to the bot"),
    F("Say \xe2\x80\x9cin 2 hours\xe2\x80\x9d to the bot", "in 2 hours",
      "Say to the bot"), /* curly quotes */
    F("Say \xe2\x80\x98"
      "at noon\xe2\x80\x99 to the bot",
      "at noon", "Say to the bot"),
    F("Say \xc2\xab"
      "at noon\xc2\xbb to the bot",
      "at noon", "Say to the bot"),
    /* the typographic apostrophe of phone keyboards */
    F("call Jo at 5 o\xe2\x80\x99"
      "clock this afternoon",
      "at 5 o\xe2\x80\x99"
      "clock this afternoon",
      "call Jo"),
    F("don\xe2\x80\x99t forget to call Jo tomorrow at 9am", "tomorrow at 9am",
      "call Jo"),
    F("in 3 days time call Jo", "in 3 days time", "call Jo"),
    /* a weekday or a day of a month the reader does not read, next to a
    ** time it does: not the time alone */
    NONE("first monday of january at 9am kickoff"),
    NONE("on the second tuesday of march at 10am review"),
    NONE("last day of january at 5pm invoice"),
    NONE("remind me on the first monday at 9am"),
    F("the 5th of january at 9am", "the 5th of january at 9am", ""),
    F("call Jan at 5pm", "at 5pm", "call Jan"),
    /* two phrases side by side that are one time the reader cannot read */
    NONE("remind me next year on march 3 at 9am"),
    NONE("friday 3pm 4pm call"),
    NONE("call the bank b4 5pm"),           /* before: an event */
    NONE("remind me at 4pm minus 30 mins"), /* arithmetic it did not do */
    NONE("remind me at 4pm plus 10 minutes"),
    /* a part of the day before a day it was not read with */
    NONE("morning tomorrow call the bank"),
    NONE("arvo tomorrow call the bank"),
    F("tomorrow arvo call the bank", "tomorrow arvo", "call the bank"),
    F("remind me this arvo at 3 to pick up the kids", "this arvo at 3",
      "pick up the kids"),
    NONE("at half six tomorrow gym"), /* 6:30 am or pm? */
    F("half six tomorrow morning gym", "half six tomorrow morning", "gym"),
    NONE("remind me on the 15th and the 30th at 9am"), /* two days */
    /* the end of a working day, sunrise: not read, so not the day alone */
    NONE("remind me at close of business tomorrow"),
    NONE("tomorrow close of business send report"),
    NONE("friday COB send report"),
    NONE("tomorrow at sunrise go running"),
    F("I have business tomorrow at 3pm", "tomorrow at 3pm", "I have business"),
    /* an ordinal day in words, a week added to a day: not read */
    NONE("on the twenty-first at 9am dentist"),
    NONE("on august twenty first at 9am dentist"),
    NONE("a week tomorrow at 9am meeting"),
    NONE("tomorrow week at 9am meeting"),
    F("First, at 9am we meet", "at 9am", "First we meet"),
    /* "I have a ..." plans; "have a good one" signs off */
    FD("I have a meeting at 3pm tomorrow", "at 3pm tomorrow",
       "I have a meeting", "2025-03-06T15:00:00Z"),
    FD("I have a dentist appointment on Friday at 3pm. Remind me an hour "
       "before.",
       "an hour before", "", "2025-03-07T14:00:00Z"),
    NONE("have a good one tomorrow"),
    /* a day alone is not the answer when its clock time was refused */
    NONE("remind me at 8 o'clock sharp tomorrow"), /* am or pm? */
    /* a bound said first, in a recurring phrase's sentence */
    NONE("from next monday, every day at 8am"),
    NONE("until christmas, every friday at 5pm"),
    F("greetings from boston, every monday at 9am send the report",
      "every monday at 9am", "greetings from boston send the report"),
    /* a meal beside a phrase without a clock time */
    NONE("tomorrow around lunch call the bank"),
    NONE("mid-morning every day stretch"),
    /* a day the reader cannot date, a place's clock before the time */
    NONE("remind me on my birthday at 9am"),
    NONE("at 9am on payday send the invoices"),
    NONE("in tokyo at 9am call Kenji"),
    FD("remind me at 9am in Tokyo", "at 9am in Tokyo", "",
       "2025-03-06T00:00:00Z"),
    FD("remind me weds at 3pm", "weds at 3pm", "", "2025-03-05T15:00:00Z"),
    /* a clock time alone falls on the day of the plan the message names */
    FD("I have a meeting at 3pm tomorrow, remind me at 2pm", "at 2pm", "",
       "2025-03-06T14:00:00Z"),
    NONE("the exam is friday at 9am; remind me at 6pm to celebrate"),
    NONE("the deadline is friday at 5pm, remind me at 9am to start"),
    /* "every" beside a one-time phrase: a recurrence it did not read */
    NONE("every first of the month at 9am"),
    NONE("M-F at 9am standup"),
    F("remind me at 5pm to water every plant", "at 5pm", "water every plant"),
    /* a range moved from one time to another: before which? */
    NONE("the call got pushed from 3pm to 5pm, remind me 10 minutes before"),
    FD("the workshop is from 3pm to 5pm, remind me 10 minutes before",
       "10 minutes before", "", "2025-03-05T14:50:00Z"),
    NONE("remind me tomorrow, at 8 sharp"),
    FD("I woke at 6, remind me tomorrow", "tomorrow", "",
       "2025-03-06T10:00:00Z"), /* a time in the past tells of it */
    /* plural parts of the day recur */
    F("mornings at 7 take meds", "mornings at 7", "take meds"),
    F("monday mornings at 8 plan the week", "monday mornings at 8",
      "plan the week"),
    NONE("I hate mornings"),
    NONE("friday nights are for pizza"),
    /* words after a day that leave its time vague */
    NONE("tomorrow first thing call the bank"),
    NONE("remind me tomorrow, first thing, to call the bank"),
    NONE("friday late call the bank"),
    F("tomorrow at 9am first thing", "tomorrow at 9am", "first thing"),
    /* a task in quotes or brackets keeps both of them */
    F("\"Buy milk\" in 2 hours", "in 2 hours", "\"Buy milk\""),
    F("\xe2\x80\x9c"
      "Buy milk\xe2\x80\x9d in 2 hours",
      "in 2 hours",
      "\xe2\x80\x9c"
      "Buy milk\xe2\x80\x9d"),
    F("\xe2\x80\x98"
      "Buy milk\xe2\x80\x99 in 2 hours",
      "in 2 hours",
      "\xe2\x80\x98"
      "Buy milk\xe2\x80\x99"),
    F("\xc2\xab"
      "Buy milk\xc2\xbb in 2 hours",
      "in 2 hours",
      "\xc2\xab"
      "Buy milk\xc2\xbb"),
    F("(call Bob) tomorrow at 9am", "tomorrow at 9am", "(call Bob)"),
    F("(tomorrow at 9am)", "tomorrow at 9am", ""),
    F("\"every day at 9am\" water plants", "every day at 9am", "water plants"),
    F("call Anna -- tomorrow at 9am -- about the lease", "tomorrow at 9am",
      "call Anna about the lease"),
    F("call Anna; tomorrow at 9am; about the lease", "tomorrow at 9am",
      "call Anna about the lease"),
    F("reminder:tomorrow at 9am", "tomorrow at 9am", ""),
    F("ETA? 10:30 pm", "10:30 pm", "ETA?"),
    F("«tomorrow at 9am» rendez-vous", "tomorrow at 9am", "rendez-vous"),
    F("café ☕ at 5pm", "at 5pm", "café ☕"),
    F("Zürich call at 8am", "at 8am", "Zürich call"),
    F("— in 3 hours — check", "in 3 hours", "check"),
    /* the whole message */
    F("tomorrow at 9am", "tomorrow at 9am", ""),
    F("  in 2 hours  ", "in 2 hours", ""),
    F("every day at 9am.", "every day at 9am", ""),
    /* the longest phrase wins */
    F("tomorrow at 10 check", "tomorrow at 10", "check"),
    F("at 10 tomorrow check", "at 10 tomorrow", "check"),
    F("tomorrow evening at 7:15 call Mom", "tomorrow evening at 7:15",
      "call Mom"),
    F("in 3 days at 8am water the orchids", "in 3 days at 8am",
      "water the orchids"),
    F("in 1 hour and 30 minutes call", "in 1 hour and 30 minutes", "call"),
    /* alternatives: which one is meant is asked back */
    NONE("today or tomorrow at 9am"),
    NONE("in 2 hours or tomorrow at 9am"),
    NONE("tomorrow at 9am or in 2 hours"),
    F("at 9am on march 10th call", "at 9am on march 10th", "call"),
    /* same length: the higher confidence, then the earliest */
    NONE("at 7 or at 9am"),
    NONE("friday or monday"),
    NONE("at 9am or at 8pm"),
    /* a time next to a word that ties it to something else is not taken;
    ** another phrase in the message still is */
    NONE("call after the meeting at 5pm"),
    F("not friday, on saturday", "on saturday", ""),
    F("I called 2 hours ago, call again in 1 hour", "in 1 hour",
      "I called 2 hours ago, call again"),
    F("last friday was fun, next friday at 9am too", "next friday at 9am",
      "too"),
    NONE("around 9am or maybe at noon tomorrow"),
    F("call at 5pm, not after the meeting", "at 5pm",
      "call not after the meeting"),
    /* a duration needs its marker inside a message */
    F("walk 5 m in 10 minutes", "in 10 minutes", "walk 5 m"),
    F("it takes 2 hours, start in 30 minutes", "in 30 minutes",
      "it takes 2 hours, start"),
    /* "on the 3rd" followed by a connective, or at the end */
    F("pay rent on the 3rd to avoid fees", "on the 3rd",
      "pay rent to avoid fees"),
    F("pay rent on the 3rd", "on the 3rd", "pay rent"),
    F("pay rent on the 3rd at 9am sharp", "on the 3rd at 9am",
      "pay rent sharp"),
    /* "sun" and "sat" with more words are weekdays */
    F("brunch on sun at 11am", "on sun at 11am", "brunch"),
    F("chores sat 9am", "sat 9am", "chores"),
    /* no time phrase: confidence 0 */
    NONE(""),
    NONE("   "),
    NONE("call 3 people"),
    NONE("room 101"),
    NONE("version 2.5"),
    NONE("release version 2.5.1 of the app"),
    NONE("the server at 192.168.0.1 is down"),
    NONE("call Anna"),
    NONE("buy 12 eggs and 2 liters of milk"),
    NONE("I have 3 kids and 2 cats"),
    NONE("order #123456"),
    NONE("pi is 3.14159"),
    NONE("score was 3-2"),
    NONE("page 42 of 300"),
    NONE("walk 5 m"),
    NONE("it takes 2 hours"),
    NONE("stay for a day"),
    NONE("eat 1/2 of the cake"),
    NONE("mix 3/4 cup of flour"),
    NONE("meet on the 3rd floor"),
    NONE("the 15th century"),
    NONE("I sat down"),
    NONE("the sun is out"),
    NONE("they wed in june"),
    NONE("remind me soon"),
    NONE("do it later"),
    NONE("someday we will fix it"),
    NONE("asap please"),
    NONE("in a while"),
    NONE("in a few minutes"),
    NONE("after the meeting tomorrow"),
    NONE("call before lunch tomorrow"),
    NONE("around 9am"),
    NONE("maybe tomorrow"),
    NONE("yesterday was hard"),
    NONE("2 hours ago"),
    NONE("last friday we shipped"),
    F("every other friday at 9am", "every other friday at 9am", ""),
    NONE("twice a day"),
    NONE("3 times a day"),
    F("every 2 days", "every 2 days", ""),
    NONE("hourly backups"),
    NONE("the 9am-5pm shift"),
    NONE("tomorrow's plan"),
    F("11 o'clock", "11 o'clock", ""),
    NONE("at 25 Main Street"),
    NONE("february 30"),
    NONE("today at 9am"), /* 09:00 has passed at 10:00 */
    NONE("this morning"),
    NONE("until friday"),
    NONE("since monday"),
    NONE("¿qué? ¡nada!"),
    NONE("日本語のテキスト"),
    NONE("%%%% ---- ++++ ::::"),
    NONE("tomorrow before noon"),
    F("meet at 5 past 11", "at 5 past 11", "meet"),
    NONE("pay rent the 3rd"),
    /* separators: U+0085 (C2 85) is not in the punctuation block U+00A0..
    ** U+00BF, U+2044 (E2 81 84) is in U+2000..U+206F; Japanese letters
    ** (E3 81 ..) are word bytes, as accented ones are */
    F("call\xc2\x85"
      "Anna tomorrow at 9am",
      "tomorrow at 9am",
      "call\xc2\x85"
      "Anna"),
    F("tomorrow at 9am\xe2\x81\x84 call", "tomorrow at 9am", "call"),
    F("\xe3\x81\x82 tomorrow at 9am", "tomorrow at 9am", "\xe3\x81\x82"),
    /* joiners at an end, or next to what is not a word, join nothing */
    F("/tomorrow at 9am", "tomorrow at 9am", ""),
    F("call at 11:", "at 11", "call"),
    F("call -tomorrow", "tomorrow", "call"),
    F("at 11:am call", "at 11", "am call"),
    /* dots: "2.x", "caf\xc3\xa9.x", "ab.c", "v1.2." stay words of their own */
    F("version 2.x tomorrow", "tomorrow", "version 2.x"),
    F("caf\xc3\xa9.x tomorrow", "tomorrow", "caf\xc3\xa9.x"),
    F("see ab.c tomorrow", "tomorrow", "see ab.c"),
    F("v1.2. tomorrow", "tomorrow", "v1.2."),
    /* a guard word glued to more is not the guard word */
    F("tomorrow at 9am ago2", "tomorrow at 9am", "ago2"),
    F("tomorrow at 9am floor2", "tomorrow at 9am", "floor2"),
    /* the rest: an unclosed bracket stays; ? and ! need no blank before;
    ** separators alone are no rest */
    F("(tomorrow at 9am call", "tomorrow at 9am", "call"),
    NONE("at noon? ok"), /* a question, not a request */
    F("at noon! ok", "at noon", ""),
    F("tomorrow at 9am ;;; ", "tomorrow at 9am", ""),
    F(":; tomorrow", "tomorrow", ""),
    F("tomorrow call ;", "tomorrow", "call"),
    F(": call tomorrow", "tomorrow", "call"),
    /* of two phrases as long, the surer one; "the 3rd" with a part of the
    ** day is a phrase (alone it is not: "the 3rd floor") */
    NONE("at 9 or noon"),
    NONE("at 9 or 9 am"),
    F("pay the 3rd evening", "the 3rd evening", "pay"),
    /* U+3001 (E3 80 81) separates; C2 C0 (not UTF-8) is read as a word */
    F("tomorrow\xe3\x80\x81"
      "call",
      "tomorrow", "call"),
    F("tomorrow \xc2\xc0 call", "tomorrow", "\xc2\xc0 call"),
    F("tomorrow call  ", "tomorrow", "call"),
    /* weak alone in a message: a date without a day, a '+' glued to a word,
    ** a bare duration */
    NONE("eat 5/2025"),
    NONE("a+2h call"),
    NONE("2 days ago\xc3\xa9"),
    /* ---- issue 34: the time the message means --------------------------- */
    /* the request's time beats a statement's; the rest is the task */
    FD("the dentist is on Friday at 3pm, remind me on Thursday at 6pm to "
       "confirm",
       "on Thursday at 6pm", "confirm", "2025-03-06T18:00:00Z"),
    FD("Party is Saturday at 8pm. Remind me Friday at 5pm to buy wine",
       "Friday at 5pm", "buy wine", "2025-03-07T17:00:00Z"),
    /* a day and a clock time apart in one sentence are read together */
    FD("I usually wake up at 7 but tomorrow remind me at 6:15", "at 6:15", "",
       "2025-03-06T06:15:00Z"),
    FD("remind me tomorrow to call Anna at 9am", "at 9am", "call Anna",
       "2025-03-06T09:00:00Z"),
    FD("remind me at 8am to call the dentist at 9am", "at 8am",
       "call the dentist at 9am", "2025-03-06T08:00:00Z"),
    /* ... also when the day is said outside the request's clause */
    FD("tomorrow, call mom at 9pm", "at 9pm", "call mom",
       "2025-03-06T21:00:00Z"),
    FD("On friday: remind me at 3pm to call", "at 3pm", "call",
       "2025-03-07T15:00:00Z"),
    FD("this morning, remind me at 11am", "at 11am", "",
       "2025-03-05T11:00:00Z"),
    FD("I went there yesterday, call me at 9pm", "at 9pm", "call me",
       "2025-03-05T21:00:00Z"),              /* a statement about another day */
    NONE("tomorrow morning, call at 9pm"),   /* 21:00 is not a morning */
    NONE("tomorrow afternoon, call at 9am"), /* nor 09:00 an afternoon */
    NONE("this morning, remind me at 9am"),  /* already past */
    NONE("today, remind me at 9am"),         /* already past */
    NONE("tomorrow or friday, call at 9am"), /* which day? */
    NONE("tomorrow or thursday, remind me at 3pm"),
    NONE("remind me tomorrow morning to call Anna at 9pm"),
    NONE("remind me this morning to call at 9am"),
    /* am or pm from the words around */
    FD("dinner at 8", "at 8", "dinner", "2025-03-05T20:00:00Z"),
    FD("wake me at 6", "at 6", "wake me", "2025-03-06T06:00:00Z"),
    NONE("call Ravi at 5"), /* a person would ask */
    FD("set a timer for 20 minutes", "for 20 minutes", "set a timer",
       "2025-03-05T10:20:00Z"),
    FD("in two hours and a half take the bread out", "in two hours and a half",
       "take the bread out", "2025-03-05T12:30:00Z"),
    F("every Monday evening at 8 call the family", "every Monday evening at 8",
      "call the family"),
    /* the task as a person writes it */
    F("\xe2\x8f\xb0 tomorrow at 7am: gym \xf0\x9f\x92\xaa", "tomorrow at 7am",
      "gym \xf0\x9f\x92\xaa"),
    F("Could you please remind me tomorrow at 10:00 to call the insurance? "
      "Thanks!",
      "tomorrow at 10:00", "call the insurance?"),
    F("don't forget to email Lucia on Thursday at 3pm", "on Thursday at 3pm",
      "email Lucia"),
    F("set a reminder for 6pm to call the plumber", "6pm", "call the plumber"),
    F("hourly: check the build", "hourly", "check the build"),
    /* past, narration, durations, numbers, vague, cancellations, questions,
    ** statements, habits, calendar rules: no schedule */
    NONE("we met yesterday at 4pm"),
    NONE("the class was at 10:30"),
    NONE("2 hours later we left"),
    NONE("that's it for now"),
    NONE("the meeting is 2 hours long"),
    NONE("John 3:16"),
    NONE("the video is 3:45 long"),
    NONE("upgrade the cluster to v2.10"),
    NONE("the window is 02:00-04:00"),
    NONE("remind me at some point next week"),
    NONE("send the report by close of business"),
    NONE("stop reminding me every day at 8am"),
    NONE("cancel my 3pm reminder"),
    F("every other tuesday at 9am pay the cleaner",
      "every other tuesday at 9am", "pay the cleaner"),
    NONE("what's the weather tomorrow?"),
    NONE("see you tomorrow!"),
    NONE("we're closed on Monday"),
    NONE("I love Friday nights"),
    NONE("in an hour or so check the roast"),
    NONE("tonight around 9 remind me to call"),
    NONE("the shop opens at 9 every day"),
    NONE("Tomorrow: 10am standup, 2pm call"),
};

/* The phrase as written in text[start..end), compared to want. */
static int span_is(const char *text, const when_found *f, const char *want) {
  size_t n = strlen(want);
  return f->end - f->start == n && memcmp(text + f->start, want, n) == 0;
}

static int64_t iso_ms(const char *s) {
  civil_time t;
  int has_off = 0;
  int32_t off = 0;
  char err[160];
  if (civil_parse_iso(s, strlen(s), &t, &has_off, &off, err, sizeof err) != 0)
    return INT64_MIN;
  return civil_to_ms(&t) - (int64_t)off * 1000;
}

static void run_table(int *n_found, int *n_none) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const fcase *c = &cases[i];
    when_found f;
    size_t len = strlen(c->text);
    int rc = when_find(c->text, len, NOW_MS, NULL, &f);
    if (!c->phrase) {
      (*n_none)++;
      CHECK(rc == -1 && f.r.kind == WHEN_NONE && f.r.confidence == 0 &&
                f.r.reason[0],
            "line %d: '%s' must give no phrase, found '%.*s'", c->line, c->text,
            (int)(f.end - f.start), c->text + f.start);
      continue;
    }
    (*n_found)++;
    CHECK(rc == 0 && f.r.kind != WHEN_NONE && f.r.confidence > 0,
          "line %d: '%s': no phrase (%s)", c->line, c->text, f.r.reason);
    if (rc != 0) continue;
    CHECK(span_is(c->text, &f, c->phrase),
          "line %d: '%s': found '%.*s', want '%s'", c->line, c->text,
          (int)(f.end - f.start), c->text + f.start, c->phrase);
    if (c->rest) {
      char *rest = malloc(len + 1);
      if (!rest) abort();
      when_found_rest(c->text, len, &f, rest);
      CHECK_STR(rest, c->rest, c->text);
      free(rest);
    }
    if (c->due) CHECK_EQ_I64(f.r.due_at, iso_ms(c->due), c->text);
  }
}

/* Spans count code points, not bytes; the reading equals when_parse's. */
static void check_spans(void) {
  when_found f;
  when_result r;
  const char *t = "«Zürich» at 5pm";
  CHECK(when_find(t, strlen(t), NOW_MS, NULL, &f) == 0, "zurich");
  CHECK_EQ_I64(f.start, 12, "byte start");
  CHECK_EQ_I64(f.cp_start, 9, "code point start");
  CHECK_EQ_I64(f.cp_end, 15, "code point end");
  t = "remind me tomorrow at 9am to call Anna";
  CHECK(when_find(t, strlen(t), NOW_MS, NULL, &f) == 0, "anna");
  CHECK_EQ_I64(f.cp_start, 10, "ascii start");
  CHECK_EQ_I64(f.cp_end, 25, "ascii end");
  when_parse("tomorrow at 9am", NOW_MS, NULL, &r);
  CHECK(memcmp(&r, &f.r, sizeof r) == 0, "same reading as when_parse");
  /* a phrase may not cross a character the parser does not read */
  t = "call at 5pm! tomorrow's plan";
  CHECK(when_find(t, strlen(t), NOW_MS, NULL, &f) == 0 &&
            span_is(t, &f, "at 5pm"),
        "'!' ends a phrase");
  /* only len bytes are read */
  t = "call Anna tomorrow at 9am";
  CHECK(when_find(t, 18, NOW_MS, NULL, &f) == 0 && span_is(t, &f, "tomorrow"),
        "len bounds the text");
  CHECK(when_find(NULL, 0, NOW_MS, NULL, &f) == -1, "NULL text");
  /* when_find_rest (one span) is when_found_rest without a second part */
  {
    char a[64], b[64];
    t = "please remind me tomorrow at 9am to call Anna";
    CHECK(when_find(t, strlen(t), NOW_MS, NULL, &f) == 0 && f.end2 == 0,
          "one part");
    when_find_rest(t, strlen(t), f.start, f.end, a);
    when_found_rest(t, strlen(t), &f, b);
    CHECK(strcmp(a, b) == 0 && strcmp(a, "call Anna") == 0, "rest '%s' '%s'", a,
          b);
  }
  /* a NUL byte separates like punctuation (fuzzer: it was let into a
  ** phrase, which the parser then read only up to the NUL) */
  static const char nul[] = "in 2 hours \0 tomorrow's plan";
  CHECK(when_find(nul, sizeof nul - 1, NOW_MS, NULL, &f) == 0 &&
            span_is(nul, &f, "in 2 hours"),
        "NUL: found [%zu, %zu)", f.start, f.end);
}

/* Bounds: text size, words per phrase; a 4 KiB message is fast. */
static void check_bounds(void) {
  static char big[WHEN_FIND_TEXT_MAX + 2];
  when_found f;
  memset(big, 'a', sizeof big - 1);
  CHECK(when_find(big, WHEN_FIND_TEXT_MAX + 1, NOW_MS, NULL, &f) == -1 &&
            strstr(f.r.reason, "longer than"),
        "too long: %s", f.r.reason);
  /* 4 KiB of words and numbers, the phrase at the very end */
  static char msg[4097];
  size_t o = 0;
  const char *words[] = {"call ", "3 ",   "people ", "room ",
                         "101 ",  "on ",  "the ",    "version ",
                         "2.5 ",  "and ", "at ",     "then "};
  for (int i = 0; o + 16 < 4096 - 20; i++) {
    size_t n = strlen(words[i % 12]);
    memcpy(msg + o, words[i % 12], n);
    o += n;
  }
  memcpy(msg + o, "tomorrow at 9am", 15);
  o += 15;
  msg[o] = 0;
  clock_t t0 = clock();
  int rc = when_find(msg, o, NOW_MS, NULL, &f);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK(rc == 0 && span_is(msg, &f, "tomorrow at 9am"), "4 KiB message");
  CHECK(secs < 0.5, "4 KiB message took %.3f s", secs);
  printf("find_when: a %zu-byte message in %.1f ms\n", o, secs * 1000);
  /* 13 words of one phrase: longer than a candidate may be. The first
  ** 12 read alone would leave "and 1 week" out: refused, not cut */
  const char *t = "in 1 hour and 1 minute and 1 second and 1 day and 1 week";
  CHECK(when_find(t, strlen(t), NOW_MS, NULL, &f) != 0,
        "more than %d words: found '%.*s'", WHEN_FIND_WORDS_MAX,
        (int)(f.end - f.start), t + f.start);
  t = "in 1 hour and 1 minute and 1 second and 1 day";
  CHECK(when_find(t, strlen(t), NOW_MS, NULL, &f) == 0 && span_is(t, &f, t),
        "at most %d words: found '%.*s'", WHEN_FIND_WORDS_MAX,
        (int)(f.end - f.start), t + f.start);
  /* a word longer than a phrase may be ends the candidates before it */
  char w[300];
  memcpy(w, "tomorrow at 9am ", 16);
  memset(w + 16, 'x', WHEN_PHRASE_MAX);
  w[16 + WHEN_PHRASE_MAX] = 0;
  CHECK(when_find(w, strlen(w), NOW_MS, NULL, &f) == 0 &&
            span_is(w, &f, "tomorrow at 9am"),
        "a long word after: found '%.*s'", (int)(f.end - f.start), w + f.start);
}

int main(void) {
  int n_found = 0, n_none = 0;
  run_table(&n_found, &n_none);
  check_spans();
  check_bounds();
  printf("find_when: %d messages (%d with a phrase, %d without)\n",
         n_found + n_none, n_found, n_none);
  CHECK(n_found + n_none >= 150 && n_none >= 40, "table size");
  return check_report("find_when");
}
