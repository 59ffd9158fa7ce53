/*
 * Streaming JSON writer: keeps only a member count per nesting level, so
 * commas and indentation come out right without building a tree.
 */
#include <math.h>
#include <inttypes.h>

#include "hddscope/json.h"

void hd_json_init(struct hd_json *j, FILE *f, int pretty)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
	j->pretty = pretty;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Separator, indentation and key before a member. */
static void member(struct hd_json *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (j->pretty && j->depth > 0) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	} else if (j->count[j->depth] > 1) {
		fputc(' ', j->f);
	}
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

static void open_(struct hd_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < HD_JSON_MAX_DEPTH) {
		j->count[++j->depth] = 0;
		j->close[j->depth] = c == '{' ? '}' : ']';
	}
}

void hd_json_obj(struct hd_json *j, const char *key)
{
	open_(j, key, '{');
}

void hd_json_arr(struct hd_json *j, const char *key)
{
	open_(j, key, '[');
}

void hd_json_end(struct hd_json *j)
{
	int had = j->count[j->depth];
	char c = j->close[j->depth];

	if (j->depth == 0)
		return;
	j->depth--;
	if (j->pretty && had) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void hd_json_str(struct hd_json *j, const char *key, const char *v)
{
	member(j, key);
	if (v)
		put_string(j->f, v);
	else
		fputs("null", j->f);
}

void hd_json_num(struct hd_json *j, const char *key, double v)
{
	member(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

void hd_json_int(struct hd_json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void hd_json_uint(struct hd_json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void hd_json_bool(struct hd_json *j, const char *key, int v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void hd_json_null(struct hd_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}
