/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-date.c -- the dates the subcommands take (cli_parse_date(),
 * src/cli.h): YYYY-MM-DD, or ISO 8601 with a time and a zone.  Part of
 * src/cli.c; pure.
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "src/cli.h"

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t
days_from_civil(int64_t y, int64_t m, int64_t d)
{
	int64_t	 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* n digits of s at *i as a number; -1 when they are not digits. */
static int
digits(const char *s, size_t *i, int n)
{
	int	 v = 0, k;

	for (k = 0; k < n; k++) {
		if (s[*i] < '0' || s[*i] > '9')
			return -1;
		v = v * 10 + (s[(*i)++] - '0');
	}
	return v;
}

/* A DATE's fields, as parse_date reads them. */
struct date {
	int	 y, mo, d, h, mi, sec, frac;	/* frac: ms */
	bool	 zone;				/* Z or an offset given */
	int	 zs, zh, zm;			/* the offset's sign, h, min */
};

/* YYYY-MM-DD at s[*i]. */
static bool
parse_day(const char *s, size_t *i, struct date *t)
{
	return (t->y = digits(s, i, 4)) >= 0 && s[(*i)++] == '-' &&
	    (t->mo = digits(s, i, 2)) >= 1 && t->mo <= 12 &&
	    s[(*i)++] == '-' && (t->d = digits(s, i, 2)) >= 1 && t->d <= 31;
}

/* [.fff] at s[*i]: any count of digits, the first three kept as ms. */
static bool
parse_frac(const char *s, size_t *i, struct date *t)
{
	int	 k = 0;

	if (s[*i] != '.' && s[*i] != ',')
		return true;
	for ((*i)++; s[*i] >= '0' && s[*i] <= '9'; (*i)++, k++)
		if (k < 3)
			t->frac = t->frac * 10 + (s[*i] - '0');
	for (; k > 0 && k < 3; k++)
		t->frac *= 10;
	return k > 0;
}

/* [Z|+HH:MM|-HH:MM|+HHMM|-HHMM] at s[*i]. */
static bool
parse_zone(const char *s, size_t *i, struct date *t)
{
	if (s[*i] == 'Z') {
		t->zone = true;
		(*i)++;
	} else if (s[*i] == '+' || s[*i] == '-') {
		t->zone = true;
		t->zs = s[(*i)++] == '-' ? -1 : 1;
		if ((t->zh = digits(s, i, 2)) < 0 || t->zh > 23)
			return false;
		if (s[*i] == ':')
			(*i)++;
		if ((t->zm = digits(s, i, 2)) < 0 || t->zm > 59)
			return false;
	}
	return true;
}

/* HH:MM[:SS[.fff]][zone] at s[*i]. */
static bool
parse_clock(const char *s, size_t *i, struct date *t)
{
	if ((t->h = digits(s, i, 2)) < 0 || t->h > 23 || s[(*i)++] != ':' ||
	    (t->mi = digits(s, i, 2)) < 0 || t->mi > 59)
		return false;
	if (s[*i] == ':' && ((*i)++, (t->sec = digits(s, i, 2)) < 0 ||
	    t->sec > 60))
		return false;
	return parse_frac(s, i, t) && parse_zone(s, i, t);
}

/*
 * DATE: YYYY-MM-DD, or YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|+HH:MM|-HH:MM]
 * (local time without a zone), as ms since the epoch.  false when not.
 */
bool
cli_parse_date(const char *s, int64_t *ms)
{
	struct date	 t;
	struct tm	 tm;
	size_t		 i = 0;
	time_t		 u;

	memset(&t, 0, sizeof(t));
	if (!parse_day(s, &i, &t))
		return false;
	if ((s[i] == 'T' || s[i] == ' ') && (i++, !parse_clock(s, &i, &t)))
		return false;
	if (s[i] != '\0')
		return false;
	if (t.zone) {
		*ms = ((days_from_civil(t.y, t.mo, t.d) * 86400 + t.h * 3600 +
		    t.mi * 60 + t.sec) - t.zs * (t.zh * 3600 + t.zm * 60)) *
		    1000 + t.frac;
		return true;
	}
	tm = (struct tm){ .tm_year = t.y - 1900, .tm_mon = t.mo - 1,
	    .tm_mday = t.d, .tm_hour = t.h, .tm_min = t.mi, .tm_sec = t.sec,
	    .tm_isdst = -1 };
	if ((u = mktime(&tm)) == (time_t)-1)
		return false;
	*ms = (int64_t)u * 1000 + t.frac;
	return true;
}
