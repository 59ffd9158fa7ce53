/*
 * Option tables: getopt_long's array, parsing with range checks and
 * one-line errors, defaults and the --help text, all from the rows of
 * struct hd_option, so that each option is written once.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/opt.h"
#include "hddscope/util.h"

/* More options than any command has: a table that outgrows it is a mistake found at once. */
#define OPT_MAX 64
/* getopt_long's value of the row at index i: above every short option letter. */
#define OPT_KEY0 256
/* Help lines: the option's label in 18 columns, the help text from column 22. */
#define OPT_LABEL_W 18
#define OPT_HELP_COL 22
#define OPT_LINE_W 79

/* A row and the offset of the struct its offsets are relative to. */
struct row {
	const struct hd_option *r;
	size_t base;
};

static int takes_arg(const struct hd_option *r)
{
	return r->kind != HD_OPT_FLAG && r->kind != HD_OPT_HELP;
}

/* Every option row of spec, its own first; returns how many. */
static size_t rows_of(const struct hd_cmdspec *spec, struct row *rows)
{
	size_t n = 0;

	for (const struct hd_option *r = spec->opts; r && r->kind != HD_OPT_END; r++)
		if (r->kind != HD_OPT_TEXT && n < OPT_MAX)
			rows[n++] = (struct row){ r, 0 };
	for (const struct hd_option *r = spec->more; r && r->kind != HD_OPT_END; r++)
		if (r->kind != HD_OPT_TEXT && n < OPT_MAX)
			rows[n++] = (struct row){ r, spec->more_off };
	return n;
}

/* How a message names the option: its letter where it has one (-o), else its long name. */
static const char *display_name(const struct hd_option *r, char *buf, size_t len)
{
	if (r->letter)
		snprintf(buf, len, "-%c", r->letter);
	else
		snprintf(buf, len, "--%s", r->name);
	return buf;
}

/* "must be between 1 and 64" unless the row says what it must be. */
static int range_error(const struct hd_option *r, const char *dn, const char *arg)
{
	if (r->must)
		hd_err("%s %s: must be %s", dn, arg, r->must);
	else if (r->hi)
		hd_err("%s %s: must be between %llu and %llu", dn, arg, (unsigned long long)r->lo,
		       (unsigned long long)r->hi);
	else if (r->lo == 1)
		hd_err("%s %s: must be greater than zero", dn, arg);
	else
		hd_err("%s %s: must be at least %llu", dn, arg, (unsigned long long)r->lo);
	return -1;
}

/* An enum's word; "must be read or write" (or "on, off or keep") otherwise. */
static int parse_enum(const struct hd_option *r, const char *dn, const char *arg, int *out)
{
	char list[256];
	size_t n = 0, k, len = 0;

	for (k = 0; r->words[k]; k++)
		if (strcmp(arg, r->words[k]) == 0) {
			*out = r->values[k];
			return 0;
		}
	for (n = k, k = 0; k < n; k++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", r->words[k],
					k + 2 < n ? ", " : k + 1 < n ? " or " : "");
	hd_err("%s '%s': must be %s", dn, arg, list);
	return -1;
}

/* Store arg in o as row r says; 0, -1 after printing a usage error, or a CALL row's exit code. */
static int store(const struct hd_option *r, void *o, const char *arg)
{
	char *p = (char *)o + r->off, dn[64];
	uint64_t v;
	double d;

	display_name(r, dn, sizeof(dn));
	switch (r->kind) {
	case HD_OPT_FLAG:
		*(int *)p = 1;
		return 0;
	case HD_OPT_SIZE:
	case HD_OPT_COUNT:
		if (r->kind == HD_OPT_SIZE ? hd_opt_size(dn, arg, &v) : hd_opt_u64(dn, arg, &v))
			return -1;
		if (v < r->lo || (r->hi && v > r->hi))
			return range_error(r, dn, arg);
		*(uint64_t *)p = v;
		return 0;
	case HD_OPT_DURATION:
		return hd_opt_duration(dn, arg, (int64_t *)p);
	case HD_OPT_DOUBLE:
		if (hd_parse_double(arg, &d) || !(d >= r->dlo && d <= r->dhi)) {
			if (r->must)
				hd_err("%s '%s': must be %s", dn, arg, r->must);
			else
				hd_err("%s '%s': must be a number between %g and %g", dn, arg, r->dlo, r->dhi);
			return -1;
		}
		*(double *)p = d;
		return 0;
	case HD_OPT_ENUM:
		return parse_enum(r, dn, arg, (int *)p);
	case HD_OPT_FILE:
		if (!*arg) {
			hd_err("%s: empty file name", dn);
			return -1;
		}
		/* fall through */
	case HD_OPT_STRING:
		*(const char **)p = arg;
		return 0;
	case HD_OPT_CALL:
		return r->call(o, arg);
	default:
		return 0;
	}
}

void hd_opt_defaults(const struct hd_cmdspec *spec, void *o, size_t size)
{
	struct row rows[OPT_MAX];
	size_t n = rows_of(spec, rows);

	memset(o, 0, size);
	for (size_t i = 0; i < n; i++)
		if (rows[i].r->def)
			store(rows[i].r, (char *)o + rows[i].base, rows[i].r->def);
}

/* getopt_long's array and short options of rows. */
static void getopt_tables(const struct row *rows, size_t n, struct option *lo, char *shortopts)
{
	size_t s = 0;

	shortopts[s++] = ':';
	for (size_t i = 0; i < n; i++) {
		const struct hd_option *r = rows[i].r;

		lo[i] = (struct option){ r->name, takes_arg(r) ? required_argument : no_argument, NULL,
					 r->letter ? r->letter : OPT_KEY0 + (int)i };
		if (r->letter) {
			shortopts[s++] = (char)r->letter;
			if (takes_arg(r))
				shortopts[s++] = ':';
		}
	}
	shortopts[s] = '\0';
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* The row getopt_long answered key for, or NULL. */
static const struct row *row_of(const struct row *rows, size_t n, int key)
{
	if (key >= OPT_KEY0 && (size_t)(key - OPT_KEY0) < n)
		return &rows[key - OPT_KEY0];
	for (size_t i = 0; i < n; i++)
		if (rows[i].r->letter && rows[i].r->letter == key)
			return &rows[i];
	return NULL;
}

int hd_opt_parse(const struct hd_cmdspec *spec, void *o, size_t size, int argc, char **argv)
{
	struct row rows[OPT_MAX];
	struct option lo[OPT_MAX + 1];
	char shortopts[2 * OPT_MAX + 2];
	size_t n = rows_of(spec, rows);
	const struct row *w;
	int key, rc;

	hd_opt_defaults(spec, o, size);
	getopt_tables(rows, n, lo, shortopts);
	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		w = row_of(rows, n, key);
		if (key == ':' || key == '?' || !w) {
			hd_err(key == ':' ? "option '%s' needs a value" : "unknown option '%s'", argv[optind - 1]);
			return hd_usage_hint(spec->name);
		}
		if (w->r->kind == HD_OPT_HELP) {
			hd_opt_usage(spec, stdout);
			return HD_EXIT_OK;
		}
		rc = store(w->r, (char *)o + w->base, optarg);
		if (rc < 0)
			return hd_usage_hint(spec->name);
		if (rc > 0)
			return rc;
		if (w->r->given)
			*(int *)((char *)o + w->base + w->r->given - 1) = 1;
	}
	if (spec->check && spec->check(o))
		return hd_usage_hint(spec->name);
	return HD_OPT_GO;
}

/* "-o, --output FILE", "--op read|write". */
static void label(const struct hd_option *r, char *buf, size_t len)
{
	size_t l = 0;

	if (r->letter)
		l += (size_t)snprintf(buf + l, len - l, "-%c, ", r->letter);
	l += (size_t)snprintf(buf + l, len - l, "--%s", r->name);
	if (!takes_arg(r))
		return;
	if (r->arg || !r->words) {
		snprintf(buf + l, len - l, " %s", r->arg ? r->arg : "VALUE");
		return;
	}
	for (size_t k = 0; r->words[k] && l < len; k++)
		l += (size_t)snprintf(buf + l, len - l, "%c%s", k ? '|' : ' ', r->words[k]);
}

/* One option's help: label, text lines from column 22, the default in parentheses last. */
static void usage_row(const struct hd_option *r, FILE *f)
{
	const char *def = r->shown ? r->shown : r->kind != HD_OPT_FLAG ? r->def : NULL;
	const char *t = r->help, *nl;
	char lab[128];
	size_t col;

	label(r, lab, sizeof(lab));
	if (strlen(lab) > OPT_LABEL_W)
		fprintf(f, "  %s\n%*s", lab, OPT_HELP_COL, "");
	else
		fprintf(f, "  %-*s  ", OPT_LABEL_W, lab);
	while ((nl = strchr(t, '\n'))) {
		fprintf(f, "%.*s\n%*s", (int)(nl - t), t, OPT_HELP_COL, "");
		t = nl + 1;
	}
	fputs(t, f);
	col = OPT_HELP_COL + strlen(t);
	if (def && col + strlen(def) + 3 > OPT_LINE_W)
		fprintf(f, "\n%*s(%s)", OPT_HELP_COL, "", def);
	else if (def)
		fprintf(f, "%s(%s)", *t ? " " : "", def);
	fputc('\n', f);
}

static void usage_rows(const struct hd_option *r, int writes, FILE *f)
{
	for (; r && r->kind != HD_OPT_END; r++) {
		if (r->kind == HD_OPT_TEXT)
			fputs(r->name, f);
		else if (r->help && (!r->writes || writes))
			usage_row(r, f);
	}
}

void hd_opt_usage(const struct hd_cmdspec *spec, FILE *f)
{
	if (spec->synopsis)
		fprintf(f, "Usage: hddscope %s %s\n\n", spec->name, spec->synopsis);
	fputs(spec->intro, f);
	usage_rows(spec->opts, spec->writes, f);
	if (spec->outro)
		fputs(spec->outro, f);
	usage_rows(spec->more, spec->writes, f);
	if (spec->extra_help)
		spec->extra_help(f);
}
