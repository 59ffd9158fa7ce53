/*
 * Streaming JSON writer: keeps only a member count per nesting level, so
 * commas and indentation come out right without building a tree.  Below it,
 * the reader of summary.json into a tree of values (struct hd_jv).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/util.h"

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
	/* Whole numbers (byte counts) in full; others to ten significant digits. */
	if (!isfinite(v))
		fputs("null", j->f);
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(j->f, "%.0f", v);
	else if (fabs(v) < 1.797693134e308)
		fprintf(j->f, "%.10g", v);
	else
		/*
		 * From 1.7976931345e308 up to DBL_MAX, ten digits round up past
		 * DBL_MAX and the number would not read back (found by tests/fuzz/fuzz_json.c:
		 * a summary.json holding 1.7976931348623157e308 became
		 * unreadable once saved); all 17 digits do.
		 */
		fprintf(j->f, "%.17g", v);
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

/* ---- the document model ---- */

#define JV_MAX_DEPTH 64

struct jp {
	const char *s, *end, *fname;
	char *err;
	size_t errlen;
	int line, depth;
};

static int jp_fail(struct jp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int jp_fail(struct jp *p, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%d: ", p->fname, p->line);

	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void jp_ws(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')) {
		if (*p->s == '\n')
			p->line++;
		p->s++;
	}
}

struct hd_jv *hd_jv_new(enum hd_jv_type type)
{
	struct hd_jv *v = calloc(1, sizeof(*v));

	if (v)
		v->type = type;
	return v;
}

void hd_jv_free(struct hd_jv *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		hd_jv_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

static int jv_push(struct hd_jv *c, char *key, struct hd_jv *val)
{
	struct hd_jv **it = realloc(c->items, (c->n + 1) * sizeof(*it));

	if (!it)
		return -1;
	c->items = it;
	if (c->type == HD_JV_OBJ) {
		char **k = realloc(c->keys, (c->n + 1) * sizeof(*k));
		if (!k)
			return -1;
		c->keys = k;
		k[c->n] = key;
	}
	it[c->n++] = val;
	return 0;
}

static void put_utf8(char **o, unsigned cp)
{
	char *q = *o;

	if (cp < 0x80) {
		*q++ = (char)cp;
	} else if (cp < 0x800) {
		*q++ = (char)(0xc0 | cp >> 6);
		*q++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*q++ = (char)(0xe0 | cp >> 12);
		*q++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*q++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*q++ = (char)(0xf0 | cp >> 18);
		*q++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*q++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*q++ = (char)(0x80 | (cp & 0x3f));
	}
	*o = q;
}

static int jp_hex4(struct jp *p, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++, p->s++) {
		char c = p->s < p->end ? *p->s : 0;
		*cp <<= 4;
		if (c >= '0' && c <= '9')
			*cp |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*cp |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*cp |= (unsigned)(c - 'A' + 10);
		else
			return jp_fail(p, "bad \\u escape");
	}
	return 0;
}

/* A string at p->s (which is '"'); the result is allocated. */
static int jp_string(struct jp *p, char **out)
{
	const char *q = ++p->s;
	char *buf, *o;

	/* Escapes never lengthen the text: the raw length bounds the result. */
	while (q < p->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
	}
	if (q >= p->end)
		return jp_fail(p, "unterminated string");
	buf = o = malloc((size_t)(q - p->s) + 1);
	if (!buf)
		return jp_fail(p, "out of memory");
	while (*p->s != '"') {
		unsigned char c = (unsigned char)*p->s;

		if (c < 0x20) {
			free(buf);
			return jp_fail(p, "control character in a string");
		}
		if (c != '\\') {
			*o++ = (char)c;
			p->s++;
			continue;
		}
		p->s++;
		switch (*p->s++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned cp, lo;
			if (jp_hex4(p, &cp)) {
				free(buf);
				return -1;
			}
			if (cp >= 0xd800 && cp < 0xdc00 && p->s + 1 < p->end && p->s[0] == '\\' && p->s[1] == 'u') {
				p->s += 2;
				if (jp_hex4(p, &lo)) {
					free(buf);
					return -1;
				}
				cp = lo >= 0xdc00 && lo < 0xe000 ? 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00) : 0xfffd;
			}
			/* A surrogate without its other half is no character: the replacement one. */
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;
			put_utf8(&o, cp);
			break;
		}
		default:
			free(buf);
			return jp_fail(p, "bad escape in a string");
		}
	}
	p->s++;
	*o = '\0';
	*out = buf;
	return 0;
}

static int jp_value(struct jp *p, struct hd_jv **out);

static int jp_container(struct jp *p, struct hd_jv *c, char close)
{
	p->s++;
	jp_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return 0;
	}
	for (;;) {
		char *key = NULL;
		struct hd_jv *v;

		jp_ws(p);
		if (c->type == HD_JV_OBJ) {
			if (p->s >= p->end || *p->s != '"')
				return jp_fail(p, "expected a member name");
			if (jp_string(p, &key))
				return -1;
			jp_ws(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				return jp_fail(p, "expected ':'");
			}
			p->s++;
		}
		if (jp_value(p, &v)) {
			free(key);
			return -1;
		}
		if (jv_push(c, key, v)) {
			free(key);
			hd_jv_free(v);
			return jp_fail(p, "out of memory");
		}
		jp_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return 0;
		}
		return jp_fail(p, "expected ',' or '%c'", close);
	}
}

static int jp_value(struct jp *p, struct hd_jv **out)
{
	struct hd_jv *v;
	int rc = 0;

	jp_ws(p);
	if (p->s >= p->end)
		return jp_fail(p, "unexpected end of input");
	if (++p->depth > JV_MAX_DEPTH)
		return jp_fail(p, "nested too deeply");
	switch (*p->s) {
	case '{':
	case '[':
		v = hd_jv_new(*p->s == '{' ? HD_JV_OBJ : HD_JV_ARR);
		if (!v)
			return jp_fail(p, "out of memory");
		rc = jp_container(p, v, *p->s == '{' ? '}' : ']');
		break;
	case '"':
		v = hd_jv_new(HD_JV_STR);
		if (!v)
			return jp_fail(p, "out of memory");
		rc = jp_string(p, &v->str);
		break;
	default:
		if ((size_t)(p->end - p->s) >= 4 && memcmp(p->s, "null", 4) == 0) {
			v = hd_jv_new(HD_JV_NULL);
			p->s += 4;
		} else if ((size_t)(p->end - p->s) >= 4 && memcmp(p->s, "true", 4) == 0) {
			v = hd_jv_new(HD_JV_BOOL);
			if (v)
				v->num = 1;
			p->s += 4;
		} else if ((size_t)(p->end - p->s) >= 5 && memcmp(p->s, "false", 5) == 0) {
			v = hd_jv_new(HD_JV_BOOL);
			p->s += 5;
		} else {
			char num[64];
			size_t k = 0;

			/*
			 * strchr() finds the terminating NUL too: without the
			 * explicit test a NUL byte in the text was taken as part
			 * of a number ("1\0" parsed as 1) instead of refused
			 * (found by tests/fuzz/fuzz_json.c).
			 */
			while (p->s + k < p->end && k < sizeof(num) - 1 && p->s[k] != '\0' &&
			       strchr("+-0123456789.eE", p->s[k]))
				k++;
			memcpy(num, p->s, k);
			num[k] = '\0';
			v = hd_jv_new(HD_JV_NUM);
			if (!v)
				return jp_fail(p, "out of memory");
			if (k == 0 || hd_parse_double(num, &v->num)) {
				char c[2] = { *p->s, '\0' }, q[8];

				hd_jv_free(v);
				return jp_fail(p, "unexpected character '%s'", hd_quote(q, sizeof(q), c));
			}
			p->s += k;
		}
		if (!v)
			return jp_fail(p, "out of memory");
	}
	p->depth--;
	if (rc) {
		hd_jv_free(v);
		return -1;
	}
	*out = v;
	return 0;
}

int hd_jv_parse(const char *text, size_t len, const char *fname, struct hd_jv **out, char *err, size_t errlen)
{
	struct jp p = { text, text + len, fname, err, errlen, 1, 0 };
	struct hd_jv *v;

	if (jp_value(&p, &v))
		return -1;
	jp_ws(&p);
	if (p.s != p.end) {
		hd_jv_free(v);
		return jp_fail(&p, "text after the JSON value");
	}
	*out = v;
	return 0;
}

/*
 * The bounds of a JSON file: summary.json is a few kilobytes of indented
 * lines, so a line of a megabyte or a file of 16 MiB is not one.
 */
#define JSON_MAX_LINE (1u << 20)
#define JSON_MAX_FILE (16u << 20)

int hd_jv_load(const char *path, struct hd_jv **out, char *err, size_t errlen)
{
	struct hd_lines l;
	FILE *f;
	char *text = NULL;
	size_t len = 0;
	int rc = hd_in_open(path, &f);

	if (rc) {
		hd_in_strerror(err, errlen, path, rc);
		return -1;
	}
	/* CRLF endings are read as LF: "\r" is JSON whitespace either way. */
	rc = hd_lines_init(&l, f, JSON_MAX_LINE);
	if (!rc)
		rc = hd_lines_slurp(&l, JSON_MAX_FILE, &text, &len);
	if (rc)
		hd_lines_strerror(err, errlen, &l, path, rc);
	hd_lines_free(&l);
	fclose(f);
	if (rc)
		return -1;
	rc = hd_jv_parse(text, len, path, out, err, errlen);
	free(text);
	return rc;
}

const struct hd_jv *hd_jv_get(const struct hd_jv *v, const char *path)
{
	while (v && *path) {
		size_t k = strcspn(path, ".");
		const struct hd_jv *next = NULL;

		if (v->type != HD_JV_OBJ)
			return NULL;
		for (size_t i = 0; i < v->n; i++)
			if (strlen(v->keys[i]) == k && memcmp(v->keys[i], path, k) == 0)
				next = v->items[i];
		v = next;
		path += k;
		if (*path == '.')
			path++;
	}
	return v;
}

double hd_jv_num(const struct hd_jv *v, const char *path, double def)
{
	const struct hd_jv *x = hd_jv_get(v, path);

	return x && (x->type == HD_JV_NUM || x->type == HD_JV_BOOL) ? x->num : def;
}

const char *hd_jv_str(const struct hd_jv *v, const char *path)
{
	const struct hd_jv *x = hd_jv_get(v, path);

	return x && x->type == HD_JV_STR ? x->str : NULL;
}

int hd_jv_append(struct hd_jv *arr, struct hd_jv *val)
{
	if (!val)
		return -ENOMEM;
	if (!arr || arr->type != HD_JV_ARR)
		return -EINVAL;
	return jv_push(arr, NULL, val) ? -ENOMEM : 0;
}

struct hd_jv *hd_jv_new_str(const char *s)
{
	struct hd_jv *v = hd_jv_new(HD_JV_STR);

	if (v && !(v->str = strdup(s))) {
		free(v);
		return NULL;
	}
	return v;
}

int hd_jv_set(struct hd_jv *obj, const char *key, struct hd_jv *val)
{
	char *k;

	if (!val)
		return -ENOMEM;
	if (!obj || obj->type != HD_JV_OBJ) {
		hd_jv_free(val);
		return -EINVAL;
	}
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0) {
			hd_jv_free(obj->items[i]);
			obj->items[i] = val;
			return 0;
		}
	k = strdup(key);
	if (!k || jv_push(obj, k, val)) {
		free(k);
		hd_jv_free(val);
		return -ENOMEM;
	}
	return 0;
}

void hd_jv_emit(struct hd_json *j, const char *key, const struct hd_jv *v)
{
	switch (v->type) {
	case HD_JV_NULL: hd_json_null(j, key); break;
	case HD_JV_BOOL: hd_json_bool(j, key, v->num != 0); break;
	case HD_JV_NUM: hd_json_num(j, key, v->num); break;
	case HD_JV_STR: hd_json_str(j, key, v->str); break;
	case HD_JV_ARR:
	case HD_JV_OBJ:
		if (v->type == HD_JV_ARR)
			hd_json_arr(j, key);
		else
			hd_json_obj(j, key);
		for (size_t i = 0; i < v->n; i++)
			hd_jv_emit(j, v->type == HD_JV_OBJ ? v->keys[i] : NULL, v->items[i]);
		hd_json_end(j);
		break;
	}
}

int hd_jv_save(const char *path, const struct hd_jv *v)
{
	struct hd_json j;
	const char *call;
	char *tmp;
	FILE *f;
	int rc = hd_out_fopen(path, &f, &tmp);

	if (rc)
		return rc;
	hd_json_init(&j, f, 1);
	hd_jv_emit(&j, NULL, v);
	if (v->type != HD_JV_OBJ && v->type != HD_JV_ARR)
		fputc('\n', f);
	return hd_out_fclose(f, tmp, path, &call);
}
