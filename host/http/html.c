/*
** html.c -- the pages' shared writing (see html.h).
*/
#include "http/html.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "time/civil.h"

/* Colours are variables, set again for a dark scheme: one stylesheet. */
static const char page_style[] =
    ":root{--fg:#222;--bg:#fafafa;--card:#fff;--line:#ddd;--th:#f0f0f0;"
    "--muted:#666;--failbg:#fde2e1;--warnbg:#fff6e5;--warncard:#fff1dc;"
    "--red:#b00020;--green:#1b7f3b;--blue:#1a5fb4;--grid:#e3e3e3;"
    "--nc:#ccc;--link:#1a5fb4;color-scheme:light dark}"
    "@media (prefers-color-scheme:dark){:root{--fg:#ddd;--bg:#16181b;"
    "--card:#1f2226;--line:#3a3f45;--th:#2a2e33;--muted:#9aa0a6;"
    "--failbg:#4a1f22;--warnbg:#40341a;--warncard:#4a3a1a;--red:#ff6b7f;"
    "--green:#5fd38a;--blue:#7aa7ff;--grid:#33383e;--nc:#555;"
    "--link:#8ab4ff}}"
    "body{font:14px/1.45 system-ui,sans-serif;margin:1.2em 1.6em;"
    "color:var(--fg);background:var(--bg)}"
    "a{color:var(--link)}"
    "h1{font-size:1.4em;margin:0 0 .2em}"
    "h2{font-size:1.15em;margin:1.6em 0 .5em;border-bottom:2px solid "
    "var(--line);padding-bottom:.2em}"
    "h3{font-size:1em;margin:1.2em 0 .4em}"
    ".muted,small{color:var(--muted)}"
    ".cards{display:flex;flex-wrap:wrap;gap:.5em;list-style:none;padding:0;"
    "margin:.4em 0}"
    ".cards li{background:var(--card);border:1px solid var(--line);"
    "border-radius:4px;padding:.3em .8em;min-width:6.5em}"
    ".cards b{display:block;font-size:1.35em}"
    ".cards li.warn{background:var(--warncard);border-color:#e8a33d}"
    "table{border-collapse:collapse;width:100%;background:var(--card)}"
    "th,td{border:1px solid var(--line);padding:.25em .5em;text-align:left;"
    "vertical-align:top}"
    "th{background:var(--th)}td.t{white-space:nowrap}"
    "table.kv th{width:12em}"
    "tr.fail td{background:var(--failbg)}tr.warn td{background:var(--warnbg)}"
    ".failed{color:var(--red);font-weight:bold}.success{color:var(--green)}"
    ".running{color:var(--blue)}.paused{color:var(--muted)}"
    ".cancelled{color:#8a5a00}"
    ".err{color:var(--red);font-weight:bold}"
    "pre{white-space:pre-wrap;word-break:break-all;background:var(--card);"
    "border:1px solid var(--line);padding:.5em;margin:.3em 0}"
    "form.filter,form.act{display:inline-block;margin:.2em .6em .2em 0}"
    "form.filter input{width:9em}"
    "svg{max-width:100%;height:auto;background:var(--card);border:1px solid "
    "var(--line)}"
    "svg text{font:11px system-ui,sans-serif;fill:var(--fg)}"
    ".grid{stroke:var(--grid)}.f{fill:var(--blue)}.od{fill:var(--red)}"
    ".nc{fill:var(--nc)}"
    "footer{margin-top:2em}";

void html_esc(sqlite3_str *s, const char *t, size_t max) {
  if (!t) return;
  size_t n = strlen(t), cut = n > max ? max : n;
  while (cut < n && cut > 0 && ((unsigned char)t[cut] & 0xC0) == 0x80) cut--;
  for (size_t i = 0; i < cut; i++) {
    unsigned char c = (unsigned char)t[i];
    switch (c) {
      case '&': sqlite3_str_appendall(s, "&amp;"); break;
      case '<': sqlite3_str_appendall(s, "&lt;"); break;
      case '>': sqlite3_str_appendall(s, "&gt;"); break;
      case '"': sqlite3_str_appendall(s, "&quot;"); break;
      case '\'': sqlite3_str_appendall(s, "&#39;"); break;
      default:
        if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
          sqlite3_str_appendall(s, "\xef\xbf\xbd");
        else sqlite3_str_appendchar(s, 1, (char)c);
    }
  }
  if (cut < n) sqlite3_str_appendall(s, "\xe2\x80\xa6");
}

void html_url(sqlite3_str *s, const char *t, size_t max) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; t && t[i] && i < max; i++) {
    unsigned char c = (unsigned char)t[i];
    int plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                c == '~';
    if (plain) {
      sqlite3_str_appendchar(s, 1, (char)c);
    } else {
      char e[4] = {'%', hex[c >> 4], hex[c & 15], 0};
      sqlite3_str_appendall(s, e);
    }
  }
}

void html_head(sqlite3_str *s, const char *title, int refresh_s) {
  sqlite3_str_appendall(s, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
                           "<meta charset=\"utf-8\">");
  if (refresh_s > 0)
    sqlite3_str_appendf(s, "<meta http-equiv=\"refresh\" content=\"%d\">",
                        refresh_s);
  sqlite3_str_appendall(s, "<meta name=\"viewport\" "
                           "content=\"width=device-width\"><title>");
  html_esc(s, title, HTML_TEXT_MAX);
  sqlite3_str_appendf(s,
                      "</title><style>%s</style></head><body>\n<header>"
                      "<h1>",
                      page_style);
  html_esc(s, title, HTML_TEXT_MAX);
  sqlite3_str_appendall(s, "</h1>");
}

void html_foot(sqlite3_str *s) {
  sqlite3_str_appendall(
      s, "<footer class=\"muted\"><a href=\"/\">All triggers</a> &middot; "
         "<a href=\"/metrics\">/metrics</a> (Prometheus text), "
         "<a href=\"/health\">/health</a> (JSON).</footer>\n</body></html>\n");
}

void html_utc_text(long long ms, char *buf, size_t n) {
  time_t t = (time_t)civil_floor_div(ms, 1000);
  struct tm tm;
  if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%SZ", &tm))
    snprintf(buf, n, "%lld ms", ms);
}

void html_rel_text(long long delta_ms, char *buf, size_t n) {
  long long a = (delta_ms < 0 ? -delta_ms : delta_ms) / 1000;
  char v[32];
  if (a < 120) snprintf(v, sizeof v, "%lld s", a);
  else if (a < 7200) snprintf(v, sizeof v, "%lld min", a / 60);
  else if (a < 172800)
    snprintf(v, sizeof v, "%lld h %lld min", a / 3600, a / 60 % 60);
  else snprintf(v, sizeof v, "%lld d %lld h", a / 86400, a / 3600 % 24);
  snprintf(buf, n, delta_ms < 0 ? "%s ago" : "in %s", v);
}

void html_span(sqlite3_str *s, long long ms) {
  if (ms < 0) ms = 0; /* a clock step back: shown as none */
  if (ms < 10000) sqlite3_str_appendf(s, "%lld ms", ms);
  else if (ms < 120000) sqlite3_str_appendf(s, "%.1f s", (double)ms / 1000);
  else sqlite3_str_appendf(s, "%lld min %lld s", ms / 60000, ms / 1000 % 60);
}

void html_status(sqlite3_str *s, const char *status) {
  if (!status) {
    sqlite3_str_appendall(s, "<span class=\"muted\">&mdash;</span>");
    return;
  }
  sqlite3_str_appendall(s, "<span class=\"");
  html_esc(s, status, 16);
  sqlite3_str_appendall(s, "\">");
  html_esc(s, status, 16);
  sqlite3_str_appendall(s, "</span>");
}

void html_error(sqlite3_str *s, const char *what, const char *why) {
  sqlite3_str_appendall(s, "<p class=\"err\">");
  html_esc(s, what, 100);
  sqlite3_str_appendall(s, ": ");
  html_esc(s, why, 400);
  sqlite3_str_appendall(s, "</p>\n");
}
